package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// hangingListener is a loopback listener that accepts connections and
// never answers (a hung server, a hung module proxy). accepted is closed
// at the first connection: from then on the process under test is
// certainly waiting on it, and a signal cannot arrive "too late".
func hangingListener(t *testing.T) (addr string, accepted <-chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never written to
			mu.Unlock()
			once.Do(func() { close(ch) })
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return l.Addr().String(), ch
}

// waitAccepted waits for the first connection. The bound only keeps a
// broken build from hanging the suite; it asserts nothing about speed.
func waitAccepted(t *testing.T, accepted <-chan struct{}, what string, stderr *bytes.Buffer) {
	t.Helper()
	select {
	case <-accepted:
	case <-time.After(5 * time.Minute):
		t.Fatalf("%s never connected to the hanging listener; stderr:\n%s", what, stderr)
	}
}

// hungGoEnv makes the go command hang on its first module download: an
// empty module cache and a module proxy that never answers. Loading any
// package of the example (which imports real client modules) then waits
// until it is interrupted.
func hungGoEnv(t *testing.T) ([]string, <-chan struct{}) {
	t.Helper()
	proxy, accepted := hangingListener(t)
	cache := t.TempDir()
	t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", cache).Run() })
	return []string{"GOPROXY=http://" + proxy, "GOMODCACHE=" + cache, "GOSUMDB=off", "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local", "GOPRIVATE=", "GONOPROXY=", "GONOSUMDB="}, accepted
}

// lockauditProcess starts the built binary in dir with extra environment.
func lockauditProcess(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(lockauditBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stdout, &stderr
}

// exitCode waits for cmd and returns its exit status.
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// oldReports writes a report of each name in dir, to check that an
// interrupted run leaves them exactly as they were.
func oldReports(t *testing.T, dir string, names ...string) func() {
	t.Helper()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("the old "+n+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		t.Helper()
		for _, n := range names {
			if data, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(data) != "the old "+n+"\n" {
				t.Errorf("%s is not the old report any more: %q %v", n, data, err)
			}
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != len(names) {
			var got []string
			for _, e := range ents {
				got = append(got, e.Name())
			}
			t.Errorf("%s holds %v, want only the old reports %v (a partial or temporary file was left)", dir, got, names)
		}
	}
}

var signals = []struct {
	sig  syscall.Signal
	name string
	code int
}{{syscall.SIGINT, "SIGINT", 130}, {syscall.SIGTERM, "SIGTERM", 143}}

// checkInterrupted checks an interrupted run's exit status and message.
func checkInterrupted(t *testing.T, cmd *exec.Cmd, command, signal string, want int, stdout, stderr *bytes.Buffer) {
	t.Helper()
	if code := exitCode(t, cmd); code != want {
		t.Errorf("exit %d after %s, want %d\nstderr:\n%s", code, signal, want, stderr)
	}
	if msg := "lockaudit " + command + ": interrupted (" + signal + "); no report written\n"; !strings.Contains(stderr.String(), msg) {
		t.Errorf("stderr lacks %q:\n%s", msg, stderr)
	}
	if command != "demo" && stdout.Len() > 0 {
		t.Errorf("an interrupted %s wrote to stdout:\n%s", command, stdout)
	}
}

// TestProbeInterrupted: Ctrl-C or SIGTERM while the probe waits on a node
// that never answers ends the run at once with 130 or 143 and
// "interrupted" — not as an expired -deadline — and the report file from
// an earlier run stays as it was.
func TestProbeInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	for _, s := range signals {
		t.Run(s.name, func(t *testing.T) {
			node, accepted := hangingListener(t)
			dir := t.TempDir()
			unchanged := oldReports(t, dir, "fleet.json")
			cmd, stdout, stderr := lockauditProcess(t, dir, nil, "probe", "-timeout", "10m", "-deadline", "10m", "-o", "fleet.json", node)
			waitAccepted(t, accepted, "the probe", stderr)
			cmd.Process.Signal(s.sig)
			checkInterrupted(t, cmd, "probe", s.name, s.code, stdout, stderr)
			unchanged()
		})
	}
}

// TestAuditInterrupted: an audit interrupted in its fleet half (a node
// that never answers) or in its code half (go list waiting on a module
// proxy that never answers) exits 130/143, writes none of its reports and
// leaves the old ones; while go list runs, LOCKAUDIT_PASSWORD is not in the
// environment of any process lockaudit started.
func TestAuditInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit and loads the example")
	}
	const secret = "Zq7-lockaudit-env-secret"
	t.Run("probing/SIGTERM", func(t *testing.T) {
		node, accepted := hangingListener(t)
		dir := t.TempDir()
		unchanged := oldReports(t, dir, "report.html", "run.json")
		cmd, stdout, stderr := lockauditProcess(t, dir, []string{"LOCKAUDIT_PASSWORD=" + secret}, "audit", "-C", exampleDir(t), "-timeout", "10m", "-deadline", "10m", "-o", filepath.Join(dir, "report.html"), "-o", filepath.Join(dir, "run.json"), "-addr", node)
		waitAccepted(t, accepted, "the audit's probe", stderr)
		cmd.Process.Signal(syscall.SIGTERM)
		checkInterrupted(t, cmd, "audit", "SIGTERM", 143, stdout, stderr)
		unchanged()
	})
	t.Run("loading packages/SIGINT", func(t *testing.T) {
		env, accepted := hungGoEnv(t)
		node, _ := hangingListener(t)
		dir := t.TempDir()
		unchanged := oldReports(t, dir, "report.md")
		cmd, stdout, stderr := lockauditProcess(t, dir, append(env, "LOCKAUDIT_PASSWORD="+secret), "audit", "-C", exampleDir(t), "-o", filepath.Join(dir, "report.md"), "-addr", node)
		waitAccepted(t, accepted, "go list", stderr)
		kids := descendants(cmd.Process.Pid)
		if len(kids) == 0 {
			t.Error("no child process (go list) found while the code half loads")
		}
		for _, pid := range kids {
			if env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ"); err == nil && bytes.Contains(env, []byte(secret)) {
				t.Errorf("process %d (%s), started by lockaudit, has LOCKAUDIT_PASSWORD in its environment", pid, cmdline(pid))
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		checkInterrupted(t, cmd, "audit", "SIGINT", 130, stdout, stderr)
		unchanged()
	})
}

// TestVetInterrupted: vet interrupted while go list loads the packages
// exits 130 and keeps the old -o report.
func TestVetInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	env, accepted := hungGoEnv(t)
	dir := t.TempDir()
	unchanged := oldReports(t, dir, "vet.sarif")
	cmd, stdout, stderr := lockauditProcess(t, dir, env, "vet", "-C", exampleDir(t), "-o", filepath.Join(dir, "vet.sarif"), "./...")
	waitAccepted(t, accepted, "go list", stderr)
	cmd.Process.Signal(syscall.SIGINT)
	checkInterrupted(t, cmd, "vet", "SIGINT", 130, stdout, stderr)
	unchanged()
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		data, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		p, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[p] = pp
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func cmdline(pid int) string {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return string(bytes.ReplaceAll(data, []byte{0}, []byte{' '}))
}

// TestRenderInterruptedWhileReading: render waiting on a pipe that never
// delivers its run ends on SIGTERM with 143.
func TestRenderInterruptedWhileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit")
	}
	dir := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := exec.Command(lockauditBinary(t), "render", "-o", "report.html", "-")
	cmd.Dir = dir
	cmd.Stdin = pr
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Cleanup(func() { cmd.Process.Kill() })
	pw.Write([]byte(`{"schema_version": 1,`)) // a run that never ends
	// Once render has taken those bytes out of the pipe it is reading its
	// input, so main has installed its signal handler.
	for i := 0; pipeHolds(t, pw) > 0; i++ {
		if i > 6000 {
			t.Fatal("render never read its input")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	checkInterrupted(t, cmd, "render", "SIGTERM", 143, &stdout, &stderr)
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("files written: %v", ents)
	}
}

// pipeHolds returns how many bytes wait in the pipe (FIONREAD).
func pipeHolds(t *testing.T, f *os.File) int {
	t.Helper()
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		t.Fatalf("FIONREAD: %v", errno)
	}
	return int(n)
}
