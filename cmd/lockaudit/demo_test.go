package main

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/reportcheck"
	"github.com/lockaudit/lockaudit/rules"
)

var addrRE = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// refused checks that nothing listens on the addresses any more.
func refused(t *testing.T, addrs []string) {
	t.Helper()
	for _, a := range addrs {
		if err := netguard.CheckLoopback(a); err != nil {
			t.Fatal(err)
		}
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after the demo", a)
		}
	}
}

// TestDemo runs `lockaudit demo` with no arguments, end to end: it starts
// the mid-upgrade fleet, audits the bundled example (found from the source
// location, as the working directory is elsewhere), writes report.html in
// the working directory, prints the verdict tied to the code and the 8.1
// replica, exits 0, and leaves no server running.
func TestDemo(t *testing.T) {
	servertest.Require(t, localfleet.Valkey91, localfleet.Valkey81)
	dir := t.TempDir()
	stdout, stderr, code := runIn(t, dir, map[string]string{"LOCKAUDIT_SERVERS": localfleet.Dir()}, "demo")
	if code != 0 {
		t.Fatalf("demo: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	addrs := addrRE.FindAllString(stdout[:strings.Index(stdout, "Auditing")], -1)
	if len(addrs) != 3 {
		t.Fatalf("want 3 server addresses before the audit, got %v:\n%s", addrs, stdout)
	}
	old := addrs[2]
	for _, want := range []string{
		old + "  Valkey 8.1.1  replica, not upgraded yet, promotable",
		"Verdict (lockaudit audit exits 3 for this run):",
		"Native release (DELIFEQ): UNSAFE",
		"- the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) but replica " + old + " (Valkey 8.1.1, promotable) has no DELIFEQ",
		"upgrade " + old + " from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ",
		"Native extend (SET IFEQ): SAFE",
		"Lua scripts: AVAILABLE",
		"Report: report.html",
		"Stopped the 3 servers.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if p := reportcheck.Check("html", html, reportcheck.Words{report.Unsafe, report.Safe, report.Available}); p != "" {
		t.Errorf("report.html: %s", p)
	}
	if !bytes.Contains(html, []byte(old)) || !bytes.Contains(html, []byte("billing/billing.go")) {
		t.Errorf("report.html lacks the 8.1 replica or the code")
	}
	refused(t, addrs)
}

// TestDemoNotInstalled: without servers the demo exits 1 before starting
// or writing anything, and says how to get one on Debian/Ubuntu, macOS and
// Fedora, and that -offline needs none.
func TestDemoNotInstalled(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runIn(t, dir, map[string]string{"LOCKAUDIT_SERVERS": filepath.Join(dir, "none"), "PATH": dir}, "demo")
	if code != report.ExitFailed || stdout != "" {
		t.Errorf("exit %d, stdout %q; want exit 1 and nothing on stdout", code, stdout)
	}
	for _, want := range []string{"none was found", "apt-get install valkey-server", "brew install valkey", "dnf install valkey", ".ci/install-servers", "lockaudit demo -offline", "valkey-server and redis-server on PATH"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		t.Error("report.html written although nothing ran")
	}
	_, stderr, code = runIn(t, dir, nil, "demo", "extra")
	if code != report.ExitUsage || !strings.Contains(stderr, "no arguments") {
		t.Errorf("demo extra: exit %d, %s", code, stderr)
	}
	_, stderr, code = runIn(t, dir, nil, "demo", "-example", dir)
	if code != report.ExitUsage || !strings.Contains(stderr, "not a Go module") {
		t.Errorf("demo -example DIR without go.mod: exit %d, %s", code, stderr)
	}
}

// offlineStory is what demo -offline prints about the declared fleet.
var offlineStory = []string{
	"Declaring a Valkey fleet in the middle of an upgrade to 9.1 (-offline: no server is started):",
	"node-3.example:6379  Valkey 8.1.1  replica, not upgraded yet, promotable",
	"Verdict (lockaudit preflight exits 3 for this run):",
	"Native release (DELIFEQ): UNSAFE",
	"- the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) but replica node-3.example:6379 (Valkey 8.1.1, promotable) has no DELIFEQ",
	"upgrade node-3.example:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ",
	"Native extend (SET IFEQ): SAFE",
	"Lua scripts: AVAILABLE",
	"Report: report.html",
}

// TestDemoOffline: -offline tells the same story with no server at all:
// the embedded example against the declared mid-upgrade fleet.
func TestDemoOffline(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runIn(t, dir, map[string]string{"LOCKAUDIT_SERVERS": filepath.Join(dir, "none")}, "demo", "-offline", "-o", "report.html", "-o", "run.json")
	if code != 0 {
		t.Fatalf("demo -offline: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range offlineStory {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "127.0.0.1") {
		t.Errorf("-offline names a loopback server:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := report.DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	if run.Command != "preflight" || run.Topology != "declared" || len(run.Nodes) != 3 || run.Verdict.Of(rules.NativeRelease).Word() != report.Unsafe || report.ExitCode(run) != report.ExitFindings {
		t.Errorf("run: command %s, topology %s, %d nodes, verdict %+v", run.Command, run.Topology, len(run.Nodes), run.Verdict)
	}
}

// TestPickFleet: both kinds of server make the mid-upgrade fleet from the
// newest of each; one kind makes a two-node fleet with a note; none, no
// fleet.
func TestPickFleet(t *testing.T) {
	srv := func(flavor, v, path string) demoServer {
		ver, err := rules.ParseVersion(rules.Flavor(flavor), v)
		if err != nil {
			t.Fatal(err)
		}
		return demoServer{install: localfleet.Install{Name: ver.Line(), Flavor: flavor, Version: v, Server: path}, version: ver, from: path}
	}
	v91, v90, v81, v80, r70 := srv("valkey", "9.1.2", "/a/9.1"), srv("valkey", "9.0.1", "/a/9.0"), srv("valkey", "8.1.1", "/a/8.1"), srv("valkey", "8.0.2", "/a/8.0"), srv("redis", "7.0.15", "/a/r7")
	describe := func(fleet []demoNode) string {
		var parts []string
		for _, n := range fleet {
			parts = append(parts, n.server.install.Version+" "+n.role)
		}
		return strings.Join(parts, "; ")
	}
	for _, tc := range []struct {
		found []demoServer
		want  string
		note  string
	}{
		{[]demoServer{r70, v80, v90, v81, v91}, "9.1.2 primary, upgraded; 9.1.2 replica, upgraded; 8.1.1 replica, not upgraded yet, promotable", ""},
		{[]demoServer{v90, v80}, "9.0.1 primary, upgraded; 9.0.1 replica, upgraded; 8.0.2 replica, not upgraded yet, promotable", ""},
		{[]demoServer{v90, r70}, "9.0.1 primary; 9.0.1 replica, promotable", "Only Valkey 9.0.1 was found"},
		{[]demoServer{v81}, "8.1.1 primary; 8.1.1 replica, promotable", "no node has DELIFEQ"},
		{[]demoServer{r70}, "7.0.15 primary; 7.0.15 replica, promotable", "Only Redis 7.0.15"},
	} {
		fleet, note, ok := pickFleet(tc.found)
		if !ok || describe(fleet) != tc.want || (tc.note == "") != (note == "") || !strings.Contains(note, tc.note) {
			t.Errorf("pickFleet(%v) = %q, note %q, %v; want %q, note %q", tc.found, describe(fleet), note, ok, tc.want, tc.note)
		}
		if note != "" && !strings.Contains(note, "lockaudit demo -offline") {
			t.Errorf("the note does not offer -offline: %s", note)
		}
	}
	if _, _, ok := pickFleet(nil); ok {
		t.Error("a fleet from no server")
	}
}

// TestDemoFromAnywhere is the installed binary's first run: lockaudit is
// built, copied into an empty folder with no clone next to it, and run
// from another empty folder with a HOME that has no server cache. demo
// finds the servers on PATH (.ci/install-servers' wrapper folders of Valkey
// 9.1 and 8.1 put there), writes the embedded example out and audits it;
// demo -offline needs no server; demo with no server on PATH says how to
// get one.
func TestDemoFromAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	servertest.Require(t, localfleet.Valkey91, localfleet.Valkey81)
	bin := filepath.Join(t.TempDir(), "lockaudit")
	data, err := os.ReadFile(lockauditBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	home := t.TempDir()
	base := []string{"HOME=" + home, "TMPDIR=" + t.TempDir(),
		// The module and build caches of this machine, so the example's
		// modules need not be downloaded again.
		"GOMODCACHE=" + goEnv("GOMODCACHE"), "GOCACHE=" + goEnv("GOCACHE"), "GOPATH=" + goEnv("GOPATH"), "GOPROXY=" + goEnv("GOPROXY"), "GOFLAGS=", "GOTOOLCHAIN=local"}
	run := func(path string, args ...string) (string, string, int) {
		dir := t.TempDir()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(append([]string(nil), base...), "PATH="+path)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if _, werr := os.Stat(filepath.Join(dir, "report.html")); err == nil && werr != nil {
			t.Errorf("lockaudit %s: no report.html in the working directory", strings.Join(args, " "))
		}
		return stdout.String(), stderr.String(), execExitCode(t, err)
	}
	plain := filepath.Dir(goBin) + string(os.PathListSeparator) + "/usr/bin:/bin"
	var serverDirs []string
	for _, line := range []string{localfleet.Valkey91, localfleet.Valkey81} {
		serverDirs = append(serverDirs, filepath.Join(localfleet.Dir(), line, "bin"))
	}
	withServers := strings.Join(serverDirs, string(os.PathListSeparator)) + string(os.PathListSeparator) + plain

	stdout, stderr, code := run(withServers, "demo")
	if code != 0 {
		t.Fatalf("demo with servers on PATH: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"Starting a Valkey fleet in the middle of an upgrade to 9.1, on loopback:",
		"Valkey 8.1.1  replica, not upgraded yet, promotable",
		"Servers: Valkey 9.1.2 (PATH: " + filepath.Join(serverDirs[0], "valkey-server") + "); Valkey 8.1.1 (PATH: " + filepath.Join(serverDirs[1], "valkey-server") + ")",
		"Native release (DELIFEQ): UNSAFE",
		"billing/billing.go:56",
		"Stopped the 3 servers.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo: stdout lacks %q:\n%s", want, stdout)
		}
	}
	refused(t, addrRE.FindAllString(stdout[:strings.Index(stdout, "Servers:")], -1))

	stdout, stderr, code = run(plain, "demo", "-offline")
	if code != 0 {
		t.Fatalf("demo -offline: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range offlineStory {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo -offline: stdout lacks %q:\n%s", want, stdout)
		}
	}

	_, stderr, code = run(plain, "demo")
	if code != report.ExitFailed || !strings.Contains(stderr, "brew install valkey") || !strings.Contains(stderr, "lockaudit demo -offline") {
		t.Errorf("demo without servers: exit %d\n%s", code, stderr)
	}
}

// demoProcess starts the built binary's demo in dir with its own TMPDIR
// (so the servers' folders, and so their processes, can be found), and
// returns it with a reader of its stdout.
func demoProcess(t *testing.T, dir, tmp string, env ...string) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(lockauditBinary(t), "demo")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp, "LOCKAUDIT_SERVERS="+localfleet.Dir()), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewReader(out), &stderr
}

// waitForServers reads the demo's stdout until the three servers are up.
func waitForServers(t *testing.T, r *bufio.Reader) []string {
	t.Helper()
	var addrs []string
	for len(addrs) < 3 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("demo output ended before the servers were up: %v", err)
		}
		addrs = append(addrs, addrRE.FindAllString(line, -1)...)
	}
	return addrs
}

// serversUnder lists running processes whose working directory is a
// server's folder below path (each demo server runs in its own node-*
// folder under the demo's temporary folder; servers rewrite their command
// line, so that is no use). The go command the analysis runs works in the
// example's folder there too, and is not a server.
func serversUnder(path string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		cwd, err := os.Readlink(p)
		if err == nil && strings.HasPrefix(cwd, path+string(filepath.Separator)) && strings.HasPrefix(filepath.Base(cwd), "node-") {
			cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
			out = append(out, filepath.Base(filepath.Dir(p))+": "+string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))+" in "+cwd)
		}
	}
	return out
}

// TestDemoInterrupt: Ctrl-C while the demo audits stops it with exit 130
// and "interrupted", stops the servers, removes its temporary folder and
// leaves the report.html of an earlier run as it was. The interruption is
// certain, not a race with a fast audit: the audit's go list waits on a
// module proxy that never answers (an empty module cache), and the signal
// is sent only once it is waiting. Meanwhile neither the servers nor the
// go command have LOCKAUDIT_PASSWORD in their environment.
func TestDemoInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	servertest.Require(t, localfleet.Valkey91, localfleet.Valkey81)
	const secret = "Zq7-lockaudit-demo-secret"
	tmp, dir := t.TempDir(), t.TempDir()
	unchanged := oldReports(t, dir, "report.html")
	env, accepted := hungGoEnv(t)
	cmd, out, stderr := demoProcess(t, dir, tmp, append(env, "LOCKAUDIT_PASSWORD="+secret)...)
	addrs := waitForServers(t, out)
	running := serversUnder(tmp)
	if len(running) != 3 {
		t.Errorf("%d server processes found under %s, want 3:\n%s", len(running), tmp, strings.Join(running, "\n"))
	}
	waitAccepted(t, accepted, "the demo's go list", stderr)
	started := descendants(cmd.Process.Pid)
	if len(started) < 4 {
		t.Errorf("%d processes below the demo, want the 3 servers and go list", len(started))
	}
	for _, pid := range started {
		if env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ"); err == nil && bytes.Contains(env, []byte(secret)) {
			t.Errorf("process %d (%s), started by the demo, has LOCKAUDIT_PASSWORD in its environment", pid, cmdline(pid))
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest := new(bytes.Buffer)
	rest.ReadFrom(out)
	// Exit 0 would mean the audit finished: the test setup failed to
	// hold it, and the interruption was not tested.
	checkInterrupted(t, cmd, "demo", "SIGINT", 130, rest, stderr)
	if !strings.Contains(rest.String(), "Stopped the 3 servers.") {
		t.Errorf("the demo did not say it stopped the servers:\n%s", rest.String())
	}
	if strings.Contains(rest.String(), "Verdict") || strings.Contains(rest.String(), "Report:") {
		t.Errorf("an interrupted demo printed a verdict or a report:\n%s", rest.String())
	}
	refused(t, addrs)
	if left := serversUnder(tmp); len(left) > 0 {
		t.Errorf("processes left running:\n%s", strings.Join(left, "\n"))
	}
	if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
		t.Errorf("the demo's temporary folder was not removed: %v", entries)
	}
	unchanged()
}

// TestDemoKilled: even killed outright (SIGKILL, no cleanup code runs),
// the demo takes its servers with it (the parent-death signal).
func TestDemoKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	servertest.Require(t, localfleet.Valkey91, localfleet.Valkey81)
	tmp := t.TempDir()
	cmd, out, _ := demoProcess(t, t.TempDir(), tmp)
	addrs := waitForServers(t, out)
	if left := serversUnder(tmp); len(left) != 3 {
		t.Fatalf("%d server processes found under %s before the kill, want 3:\n%s", len(left), tmp, strings.Join(left, "\n"))
	}
	started := descendants(cmd.Process.Pid) // the servers, and go list if it runs
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// The kernel delivers the parent-death signal at once; give the
	// processes a bounded time to be reaped (a guard, not a timing check).
	deadline := time.Now().Add(10 * time.Second)
	for len(serversUnder(tmp)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := serversUnder(tmp); len(left) > 0 {
		t.Errorf("server processes outlived the killed demo:\n%s", strings.Join(left, "\n"))
	}
	refused(t, addrs)
	// Nothing can stop a go list that was running: it finishes on its own
	// (writing in TMPDIR until then); wait for it before the folder goes.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		alive := false
		for _, pid := range started {
			if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
				alive = true
			}
		}
		if !alive {
			break
		}
	}
}

// A demo killed with SIGKILL runs no clean-up and leaves its temp folder;
// the next demo removes it (removeStaleDemoDirs), and nothing else: not
// the folder of a demo still running, not a folder of another name.
func TestDemoRemovesFolderOfKilledDemo(t *testing.T) {
	tmp := t.TempDir()
	cmd := exec.Command(lockauditBinary(t), "demo", "-offline")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(tmp, demoDirPrefix+strconv.Itoa(cmd.Process.Pid)+"-*")
	var dirs []string
	for start := time.Now(); len(dirs) == 0 && time.Since(start) < 5*time.Minute; time.Sleep(20 * time.Millisecond) {
		dirs, _ = filepath.Glob(left)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	if len(dirs) != 1 {
		t.Fatalf("the demo made no folder %s", left)
	}
	running := filepath.Join(tmp, demoDirPrefix+strconv.Itoa(os.Getppid())+"-1")
	other := filepath.Join(tmp, "lockaudit-demo-notapid-1")
	for _, d := range []string{running, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(dirs[0]); err != nil {
		t.Fatalf("the killed demo's folder is already gone: %v", err)
	}
	removeStaleDemoDirs(tmp)
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("the killed demo's folder %s is still there (%v)", dirs[0], err)
	}
	for _, d := range []string{running, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
