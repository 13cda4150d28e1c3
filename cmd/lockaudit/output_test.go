package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

// warnModule has one warning-severity finding and nothing else: an LA100
// (a //lockaudit:ignore without a reason).
var warnModule = map[string]string{
	"go.mod":  "module example.com/warn\n\ngo 1.22\n",
	"warn.go": "package warn\n\n//lockaudit:ignore LA103\nfunc F() {}\n",
}

// TestFailOn: -fail-on moves the gate on every command that has one: a
// warning fails by default and passes under -fail-on error, and the JSON
// run records the gate; a bad value is a usage error before any work.
func TestFailOn(t *testing.T) {
	mod := writeModule(t, warnModule)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"vet", "-C", mod, "./..."}, report.ExitFindings},
		{[]string{"vet", "-C", mod, "-fail-on", "error", "./..."}, 0},
		{[]string{"vet", "-C", mod, "-fail-on", "warning", "./..."}, report.ExitFindings},
		{[]string{"preflight", "-C", mod, "-target", "valkey-9.0", "./..."}, report.ExitFindings},
		{[]string{"preflight", "-C", mod, "-target", "valkey-9.0", "-fail-on", "error", "./..."}, 0},
	} {
		out := filepath.Join(t.TempDir(), "run.json")
		_, stderr, code := runIn(t, t.TempDir(), nil, append(tc.args, "-o", out)...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", strings.Join(tc.args, " "), code, tc.code, stderr)
		}
		var run struct {
			FailOn string `json:"fail_on"`
		}
		json.Unmarshal(mustRead(t, out), &run)
		want := ""
		for i, a := range tc.args {
			if a == "-fail-on" {
				want = tc.args[i+1]
			}
		}
		if run.FailOn != want {
			t.Errorf("%s: the JSON run says fail_on %q, want %q", strings.Join(tc.args, " "), run.FailOn, want)
		}
	}
	for _, args := range [][]string{
		{"vet", "-C", mod, "./..."},
		{"audit", "-C", mod, "-addr", "127.0.0.1:1", "./..."},
		{"preflight", "-C", mod, "-target", "valkey-9.0", "./..."},
		{"probe", "127.0.0.1:1"},
		{"scan", "127.0.0.1:1"},
		{"conform", "-write-scratch-key", "127.0.0.1:1"},
	} {
		_, stderr, code := runIn(t, t.TempDir(), nil, append([]string{args[0], "-fail-on", "warn"}, args[1:]...)...)
		if code != report.ExitUsage || !strings.Contains(stderr, `-fail-on: unknown severity "warn" (want error, warning or info)`) {
			t.Errorf("%s -fail-on warn: exit %d, %s", args[0], code, stderr)
		}
	}
}

// TestFailOnProbe: on a real server, the info findings a default probe
// reports (no AOF: LA205) pass by default and fail under -fail-on info;
// render -exit-status of the saved run says the same.
func TestFailOnProbe(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	s := servertest.Start(t, servertest.Config{})
	dir := t.TempDir()
	_, stderr, code := runIn(t, dir, nil, "probe", "-o", "default.json", s.Addr)
	if code != 0 || !strings.Contains(stderr, "info") {
		t.Fatalf("probe: exit %d, want 0 with info findings\n%s", code, stderr)
	}
	_, stderr, code = runIn(t, dir, nil, "probe", "-fail-on", "info", "-o", "info.json", "-o", "info.txt", s.Addr)
	if code != report.ExitFindings {
		t.Errorf("probe -fail-on info: exit %d, want 3\n%s", code, stderr)
	}
	if txt := string(mustRead(t, filepath.Join(dir, "info.txt"))); !strings.Contains(txt, "Exit status 3") {
		t.Errorf("the text report does not state exit status 3:\n%s", txt)
	}
	if _, _, code := runIn(t, dir, nil, "render", "-exit-status", "-o", os.DevNull, "info.json"); code != report.ExitFindings {
		t.Errorf("render -exit-status of the -fail-on info run: exit %d, want 3", code)
	}
	if _, _, code := runIn(t, dir, nil, "render", "-exit-status", "-o", os.DevNull, "default.json"); code != 0 {
		t.Errorf("render -exit-status of the default run: exit %d, want 0", code)
	}
}

// TestColor: the text report is coloured on a terminal (a real pseudo
// terminal here), not when NO_COLOR is set or TERM is dumb, never in a
// pipe or a file, and -color always / never decide regardless.
func TestColor(t *testing.T) {
	mod := writeModule(t, warnModule)
	vet := func(stdout *os.File, vars map[string]string, extra ...string) string {
		var errb bytes.Buffer
		args := append([]string{"vet", "-C", mod}, extra...)
		run(servertest.Loopback(t), append(args, "./..."), &env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: &errb, Getenv: func(k string) string { return vars[k] }, Dir: mod})
		return errb.String()
	}
	master, slave := openPTY(t)
	read := func() string {
		// The report is small and written at once; the terminal echoes it
		// with \r\n line ends.
		buf := make([]byte, 1<<16)
		master.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, _ := master.Read(buf)
		return string(buf[:n])
	}
	yellow := "\033[33mLA100\033[0m" // LA100 is a warning
	vet(slave, nil)
	if out := read(); !strings.Contains(out, yellow) {
		t.Errorf("a terminal got no colour: %q", out)
	}
	vet(slave, map[string]string{"NO_COLOR": "1"})
	if out := read(); strings.Contains(out, "\033[") || !strings.Contains(out, "LA100") {
		t.Errorf("NO_COLOR=1 still coloured: %q", out)
	}
	vet(slave, map[string]string{"TERM": "dumb"})
	if out := read(); strings.Contains(out, "\033[") {
		t.Errorf("TERM=dumb still coloured: %q", out)
	}
	vet(slave, nil, "-color", "never")
	if out := read(); strings.Contains(out, "\033[") {
		t.Errorf("-color never still coloured: %q", out)
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	vet(file, nil)
	vet(file, nil, "-color", "always")
	file.Close()
	data := string(mustRead(t, file.Name()))
	if lines := strings.Split(strings.TrimSpace(data), "\n"); len(lines) != 2 || strings.Contains(lines[0], "\033[") || !strings.Contains(lines[1], yellow) {
		t.Errorf("a file got colour without -color always, or none with it: %q", data)
	}
	if stderr := vet(file, nil, "-color", "rainbow"); !strings.Contains(stderr, `unknown -color "rainbow" (want auto, always or never)`) {
		t.Errorf("-color rainbow: %s", stderr)
	}
}

// openPTY opens a pseudo terminal pair (/dev/ptmx and its /dev/pts/N).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("ptsname: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}
