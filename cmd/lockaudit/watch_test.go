package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
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
		{[]string{"probe", "-listen", "127.0.0.1:0", "127.0.0.1:6379"}, "-listen and -allow-host need -watch"},
		{[]string{"probe", "-allow-host", "prom.internal", "127.0.0.1:6379"}, "-listen and -allow-host need -watch"},
		{[]string{"probe", "-watch", "-1s", "-listen", "127.0.0.1:0", "127.0.0.1:6379"}, "-watch must be a positive interval"},
		{[]string{"probe", "-watch", "30s", "-listen", "127.0.0.1:", "127.0.0.1:6379"}, `-listen "127.0.0.1:" is not HOST:PORT`},
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

// TestListenDefault: -watch without -listen serves on 127.0.0.1:9187, a
// bare port is loopback's, and the help and the docs show a loopback
// address (before, -listen was required and the docs' first example
// served every interface).
func TestListenDefault(t *testing.T) {
	var o probeFlags
	fs := newFlagSet(&env{Stderr: io.Discard, Stdout: io.Discard, Getenv: os.Getenv}, "probe")
	o.conn.register(fs)
	fs.StringVar(&o.watch.listen, "listen", defaultListen, "")
	if o.watch.listen != "127.0.0.1:9187" {
		t.Errorf("-listen default %q", o.watch.listen)
	}
	for in, want := range map[string]string{"9187": "127.0.0.1:9187", "127.0.0.1:0": "127.0.0.1:0", ":9187": ":9187"} {
		if got, err := listenAddr(in); err != nil || got != want {
			t.Errorf("listenAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	help, _, _ := runCLI(t, "help", "probe")
	if !strings.Contains(help, `(default "127.0.0.1:9187")`) {
		t.Errorf("help probe does not show the loopback default:\n%s", help)
	}
	doc := string(mustRead(t, "../../docs/fleet-commands.md"))
	if !strings.Contains(doc, "lockaudit probe -watch 30s -listen 127.0.0.1:9187") || strings.Contains(doc, "-listen :9187 ") {
		t.Error("docs/fleet-commands.md's first watch example does not listen on loopback")
	}
}

// TestProbeWatchHeldConnections runs probe -watch as a process with 128
// file descriptors (ulimit -n) and holds 300 connections to it: the
// watcher keeps answering /metrics and every probe keeps reading the
// fleet. Before, each held keep-alive connection kept a descriptor until
// accept and the probe's own dials failed with "too many open files".
func TestProbeWatchHeldConnections(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	s := servertest.Start(t, servertest.Config{})
	cmd := exec.Command("sh", "-c", `ulimit -n 128 && exec "$0" "$@"`, lockauditBinary(t), "probe", "-watch", "100ms", "-listen", "127.0.0.1:0", s.Addr)
	base, lines := startWatch(t, cmd)
	addr := strings.TrimPrefix(base, "http://")
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range 300 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		// A request, then the connection kept alive and idle.
		c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
		held = append(held, c)
	}
	before := metricValue(t, base, `lockaudit_probes_total{outcome="ok"}`)
	for deadline := time.Now().Add(60 * time.Second); metricValue(t, base, `lockaudit_probes_total{outcome="ok"}`) < before+5; {
		if time.Now().After(deadline) {
			t.Fatalf("no 5 more successful probes within 60s while 300 connections were held; stderr:\n%s", drain(lines))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := metricValue(t, base, "lockaudit_probe_errors_total"); n != 0 {
		t.Errorf("%v probes failed while connections were held; stderr:\n%s", n, drain(lines))
	}
	cmd.Process.Signal(os.Interrupt)
}

// startWatch starts probe -watch and returns the base URL it prints and
// its stderr lines.
func startWatch(t *testing.T, cmd *exec.Cmd) (string, chan string) {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	re := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+)/metrics`)
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("lockaudit exited before serving")
			}
			if m := re.FindStringSubmatch(l); m != nil {
				return m[1], lines
			}
		case <-timeout:
			t.Fatal("no serving line within 60s")
		}
	}
}

// drain returns the stderr lines read so far.
func drain(lines chan string) string {
	var out []string
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return strings.Join(out, "\n")
			}
			out = append(out, l)
		default:
			return strings.Join(out, "\n")
		}
	}
}

// metricValue scrapes one series (its exposition name with labels) from
// /metrics; -1 when it is absent or /metrics does not answer.
func metricValue(t *testing.T, base, series string) float64 {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(base + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, series+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return -1
}

// TestProbeWatchHostAndHealthz runs probe -watch as a process: /healthz
// answers, a request for another Host (DNS rebinding) is refused with
// 421, and /metrics carries lockaudit_build_info. Before, every Host was
// served and there was no /healthz.
func TestProbeWatchHostAndHealthz(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	s := servertest.Start(t, servertest.Config{})
	cmd := exec.Command(lockauditBinary(t), "probe", "-watch", "1h", "-listen", "127.0.0.1:0", "-allow-host", "prom.internal", s.Addr)
	base, _ := startWatch(t, cmd)
	get := func(host, path string) int {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Host = host
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
		if err != nil {
			t.Fatalf("GET %s (Host %s): %v", path, host, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("127.0.0.1", "/healthz"); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	if code := get("prom.internal:9187", "/healthz"); code != 200 {
		t.Errorf("-allow-host prom.internal: %d", code)
	}
	if code := get("rebind.attacker.example", "/metrics"); code != http.StatusMisdirectedRequest {
		t.Errorf("Host rebind.attacker.example: %d, want 421", code)
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `lockaudit_build_info{goversion="` + runtime.Version() + `",revision="`; !strings.Contains(string(b), want) {
		t.Errorf("/metrics lacks %s…:\n%s", want, b)
	}
}
