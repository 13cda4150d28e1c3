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
	if p := reportcheck.Check("html", html, &report.Verdict{NativeRelease: report.Unsafe, NativeExtend: report.Safe, Lua: report.Available}); p != "" {
		t.Errorf("report.html: %s", p)
	}
	if !bytes.Contains(html, []byte(old)) || !bytes.Contains(html, []byte("billing/billing.go")) {
		t.Errorf("report.html lacks the 8.1 replica or the code")
	}
	refused(t, addrs)
}

// TestDemoNotInstalled: without the servers the demo exits 1 and says how
// to install them, before starting or writing anything.
func TestDemoNotInstalled(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runIn(t, dir, map[string]string{"LOCKAUDIT_SERVERS": filepath.Join(dir, "none")}, "demo")
	if code != report.ExitFailed || !strings.Contains(stderr, ".ci/install-servers") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 naming .ci/install-servers", code, stdout, stderr)
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

// TestFindExample: walking up from inside the repository finds the
// example; from elsewhere the source location does; a module of another
// path is not the repository.
func TestFindExample(t *testing.T) {
	want, _ := filepath.Abs(example)
	if got := findExample(filepath.Join(want, "billing")); got != want {
		t.Errorf("from the example's billing folder: %q, want %q", got, want)
	}
	if got := findExample(t.TempDir()); got != want {
		t.Errorf("from elsewhere (source location): %q, want %q", got, want)
	}
	fake := t.TempDir()
	os.MkdirAll(filepath.Join(fake, "testdata", "example"), 0o755)
	os.WriteFile(filepath.Join(fake, "testdata", "example", "go.mod"), []byte("module x\n"), 0o644)
	os.WriteFile(filepath.Join(fake, "go.mod"), []byte("module example.com/other\n"), 0o644)
	if isLockauditRoot(fake) {
		t.Error("a module of another path is taken for the lockaudit repository")
	}
	os.WriteFile(filepath.Join(fake, "go.mod"), []byte("// comment\nmodule \"github.com/lockaudit/lockaudit\"\n"), 0o644)
	if !isLockauditRoot(fake) {
		t.Error("the lockaudit module (quoted path) is not recognised")
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

// serversUnder lists running processes whose working directory is below
// path (each demo server runs in its own folder under the demo's
// temporary folder; servers rewrite their command line, so that is no use).
func serversUnder(path string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cwd")
	for _, p := range procs {
		cwd, err := os.Readlink(p)
		if err == nil && strings.HasPrefix(cwd, path+string(filepath.Separator)) {
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
