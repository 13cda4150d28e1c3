package watch

import (
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// serveHardened runs the watcher through Serve on a loopback port, as
// probe -watch does, and returns its base URL.
func serveHardened(t *testing.T, w *Watcher, o ServeOptions) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, w.Handler(), o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + l.Addr().String()
}

// getHost sends GET path with the given Host header.
func getHost(t *testing.T, base, path, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeHostAllowlist: requests for loopback names, the listening
// address and -allow-host names are answered; any other Host (a DNS
// rebinding page's name) gets 421, naming -allow-host. Before, every Host
// was answered.
func TestServeHostAllowlist(t *testing.T) {
	w := New(Options{Render: render.Render, Interval: time.Hour})
	base := serveHardened(t, w, ServeOptions{Hosts: []string{"prometheus-target.internal"}})
	port := base[strings.LastIndex(base, ":"):]
	for host, want := range map[string]int{
		"127.0.0.1" + port:                  200,
		"localhost" + port:                  200,
		"LOCALHOST.":                        200,
		"127.0.0.2" + port:                  200,
		"[::1]" + port:                      200,
		"prometheus-target.internal" + port: 200,
		"attacker.example" + port:           http.StatusMisdirectedRequest,
		"attacker.example":                  http.StatusMisdirectedRequest,
		"10.0.0.1" + port:                   http.StatusMisdirectedRequest,
	} {
		code, body := getHost(t, base, "/healthz", host)
		if code != want {
			t.Errorf("Host %q: %d, want %d (%s)", host, code, want, body)
		}
		if code == http.StatusMisdirectedRequest && !strings.Contains(body, "-allow-host") {
			t.Errorf("Host %q: the refusal does not say how to allow it: %s", host, body)
		}
	}
	any := serveHardened(t, w, ServeOptions{Hosts: []string{"*"}})
	if code, _ := getHost(t, any, "/healthz", "attacker.example"); code != 200 {
		t.Errorf("-allow-host *: %d", code)
	}
}

// TestHostAllowedListenAddress: a watcher listening on a specific address
// answers requests for that address; one on every interface does not
// answer every address.
func TestHostAllowedListenAddress(t *testing.T) {
	specific := &net.TCPAddr{IP: net.ParseIP("10.1.2.3"), Port: 9187}
	every := &net.TCPAddr{IP: net.IPv4zero, Port: 9187}
	if !HostAllowed("10.1.2.3:9187", specific, nil) {
		t.Error("the listening address is refused")
	}
	if HostAllowed("10.1.2.4:9187", specific, nil) || HostAllowed("10.1.2.3:9187", every, nil) || HostAllowed("0.0.0.0:9187", every, nil) {
		t.Error("an address the watcher does not listen on is allowed")
	}
}

// TestHealthzDoesNotProbe: /healthz answers 200 before the first probe
// (when /report is still 503) and however often it is asked, the fleet
// is probed only on the watcher's own interval.
func TestHealthzDoesNotProbe(t *testing.T) {
	var probes atomic.Int32
	w := New(Options{Render: render.Render, Interval: time.Hour, Probe: func(context.Context) (*report.Run, error) {
		probes.Add(1)
		run := report.New("probe", "test")
		return run, nil
	}})
	base := serveHardened(t, w, ServeOptions{})
	if code, body := getHost(t, base, "/healthz", "127.0.0.1"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz before any probe: %d %q", code, body)
	}
	if code, _ := getHost(t, base, "/report", "127.0.0.1"); code != http.StatusServiceUnavailable {
		t.Errorf("/report before any probe: %d, want 503", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for probes.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	for range 20 {
		if code, _ := getHost(t, base, "/healthz", "127.0.0.1"); code != 200 {
			t.Fatalf("/healthz: %d", code)
		}
	}
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes after 20 /healthz requests, want the 1 the interval made", n)
	}
}

// TestBuildInfo: lockaudit_build_info carries the version, the revision
// and the Go version.
func TestBuildInfo(t *testing.T) {
	w := New(Options{Render: render.Render, Interval: time.Hour, Version: "v1.2.3", Revision: "abc123"})
	base := serve(t, w)
	m := scrape(t, base)
	key := "lockaudit_build_info{goversion=" + runtime.Version() + ",revision=abc123,version=v1.2.3}"
	if m[key] != 1 {
		t.Errorf("%s = %v; metrics: %v", key, m[key], m)
	}
}

// TestServeConnectionCap: connections that are held open doing nothing
// never exceed the cap — the longest-idle is closed to make room — and
// /metrics is answered while hundreds of them are held. Before, every
// held connection kept a file descriptor until the process ran out.
func TestServeConnectionCap(t *testing.T) {
	const max = 8
	w := New(Options{Render: render.Render, Interval: time.Hour})
	base := serveHardened(t, w, ServeOptions{MaxConns: max})
	addr := strings.TrimPrefix(base, "http://")
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range 200 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	for range 3 {
		if code, _ := getHost(t, base, "/metrics", "127.0.0.1"); code != 200 {
			t.Fatalf("/metrics with 200 held connections: %d", code)
		}
	}
	// All but the newest few held connections were closed by the server:
	// a read sees EOF (or a reset) at once, not a deadline.
	open := 0
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			open++
		}
	}
	if open > max {
		t.Errorf("%d held connections still open, want at most %d", open, max)
	}
}

// TestServeClosesSlowHeaders: a connection that starts a request and
// never finishes its headers (slowloris) is closed by the server after
// ReadHeaderTimeout, instead of holding a slot for as long as the client
// likes. The read deadline below is only a hang guard, far beyond the
// timeout: what is asserted is that the server closes, not how fast.
func TestServeClosesSlowHeaders(t *testing.T) {
	w := New(Options{Render: render.Render, Interval: time.Hour})
	base := serveHardened(t, w, ServeOptions{})
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(ReadHeaderTimeout + 2*time.Minute))
	_, err = io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("a request whose headers never end was still open after %v", ReadHeaderTimeout+2*time.Minute)
	}
}
