package main

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/servertest"
)

// drillProcess starts lockaudit drill and returns, once the first
// variant's fleet is up, the addresses of its servers and proxy; the rest
// of stdout is collected in out.
func drillProcess(t *testing.T, dir string, args ...string) (*exec.Cmd, []string, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(lockauditBinary(t), append([]string{"drill"}, args...)...)
	cmd.Dir = dir
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(pipe)
	out := &strings.Builder{}
	var addrs []string
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if a, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "started on loopback: "); ok {
			addrs = strings.Fields(a)
			break
		}
	}
	if len(addrs) != 6 {
		t.Fatalf("want 6 processes (primary, proxy, replica, 3 Sentinels) on the first variant's line, got %v; output:\n%s", addrs, out)
	}
	go func() {
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
		}
	}()
	return cmd, addrs, out
}

// gone checks that nothing answers at any of addrs any more.
func gone(t *testing.T, addrs []string) {
	t.Helper()
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, 2*time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after the drill ended", a)
		}
	}
}

// TestDrillStopsEverything: the servers and the proxy the drill starts are
// gone when it ends normally, and when SIGINT or SIGTERM stops it halfway
// (exit 130/143, no record written).
func TestDrillStopsEverything(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	if testing.Short() {
		t.Skip("plays a failover on real servers")
	}
	dir := t.TempDir()
	cmd, addrs, out := drillProcess(t, dir, "-only", "none", "-o", "drill.json")
	if code := exitCode(t, cmd); code != 0 {
		t.Fatalf("drill exited %d; output:\n%s", code, out)
	}
	if !strings.HasSuffix(out.String(), "double holder: yes; stale write rejected by the fence: yes\n") {
		t.Errorf("the drill does not end with the closing line; output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "drill.json")); err != nil {
		t.Errorf("no record: %v", err)
	}
	gone(t, addrs)

	for _, s := range signals {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, addrs, out := drillProcess(t, dir, "-only", "none", "-o", "drill.json")
			cmd.Process.Signal(s.sig)
			if code := exitCode(t, cmd); code != s.code {
				t.Errorf("exit %d after %s, want %d; output:\n%s", code, s.name, s.code, out)
			}
			gone(t, addrs)
			if _, err := os.Stat(filepath.Join(dir, "drill.json")); err == nil {
				t.Error("an interrupted drill wrote its record")
			}
		})
	}
}

// TestDrillAgainstRefuses: -against never runs without the flag naming
// its consequence, nor without -master; the local drill takes neither.
func TestDrillAgainstRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-against", "127.0.0.1:1", "-master", "staging"}, "-force-failover-and-write-scratch-keys"},
		{[]string{"-against", "127.0.0.1:1", "-force-failover-and-write-scratch-keys"}, "-master NAME"},
		{[]string{"-master", "staging"}, "go with -against"},
		{[]string{"-only", "bogus"}, `unknown setting "bogus"`},
	} {
		_, stderr, code := runCLI(t, append([]string{"drill"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("drill %v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestAuditDrillAttaches: -drill DRILL.json puts a drill's record in the
// client's report (JSON, HTML); a run that is not a drill's is refused.
func TestAuditDrillAttaches(t *testing.T) {
	record, err := filepath.Abs("../../report/testdata/drill.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, stderr, code := runIn(t, dir, nil, "preflight", "-C", exampleDir(t), "-target", "valkey-9.1", "-drill", record, "-o", filepath.Join(dir, "r.json"), "-o", filepath.Join(dir, "r.html"))
	if code != 0 && code != 3 {
		t.Fatalf("preflight -drill: exit %d\n%s", code, stderr)
	}
	run := readJSONRun(t, filepath.Join(dir, "r.json"))
	if run.Drill == nil || len(run.Drill.Variants) != 6 {
		t.Fatalf("the report has no drill record: %+v", run.Drill)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "r.html"))
	if !strings.Contains(string(html), `<section id="drill">`) || !strings.Contains(string(html), "double holder: yes; stale write rejected by the fence: yes") {
		t.Error("the HTML report has no drill section")
	}
	notDrill, _ := filepath.Abs("../../report/testdata/audit-safe.json")
	_, stderr, code = runIn(t, dir, nil, "preflight", "-C", exampleDir(t), "-target", "valkey-9.1", "-drill", notDrill)
	if code != 2 || !strings.Contains(stderr, "audit run, not a drill's") {
		t.Errorf("-drill with a preflight run: exit %d, %q", code, stderr)
	}
}
