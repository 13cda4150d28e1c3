package main

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

func TestProbeWatchUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"probe", "-watch", "30s", "127.0.0.1:6379"}, "-watch needs -listen"},
		{[]string{"probe", "-listen", "127.0.0.1:0", "127.0.0.1:6379"}, "-listen needs -watch"},
		{[]string{"probe", "-watch", "-1s", "-listen", "127.0.0.1:0", "127.0.0.1:6379"}, "-watch must be a positive interval"},
		{[]string{"probe", "-watch", "30s", "-listen", "9187", "127.0.0.1:6379"}, `-listen "9187" is not HOST:PORT`},
		{[]string{"probe", "-watch", "30s", "-listen", "127.0.0.1:0", "-o", "x.json", "127.0.0.1:6379"}, "writes no -o file"},
	} {
		_, stderr, code := runIn(t, t.TempDir(), nil, tt.args...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestProbeWatchCLI runs `lockaudit probe -watch` as a process: it serves
// metrics on the address it prints, and stops on SIGINT.
func TestProbeWatchCLI(t *testing.T) {
	bin := lockauditBinary(t)
	s := servertest.Start(t, servertest.Config{})
	cmd := exec.Command(bin, "probe", "-watch", "100ms", "-listen", "127.0.0.1:0", s.Addr)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var base string
	re := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+)/metrics`)
	timeout := time.After(30 * time.Second)
	for base == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("lockaudit exited before serving")
			}
			if m := re.FindStringSubmatch(l); m != nil {
				base = m[1]
			}
		case <-timeout:
			t.Fatal("no serving line within 30s")
		}
	}
	var body string
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(body, `lockaudit_verdict{path="native_release",verdict="safe"} 1`); {
		if time.Now().After(deadline) {
			t.Fatalf("metrics never showed a safe release:\n%s", body)
		}
		time.Sleep(50 * time.Millisecond)
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body = string(b)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Errorf("wait: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("lockaudit probe -watch did not stop on SIGINT")
	}
	if _, err := http.Get(base + "/metrics"); err == nil {
		t.Errorf("still serving after SIGINT")
	}
}
