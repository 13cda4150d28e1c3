package watch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The HTTP side's limits, documented in docs/reliability.md. A scrape is
// one small request answered from memory, so every bound is generous for
// Prometheus and short for a connection that holds a slot doing nothing.
const (
	ReadHeaderTimeout = 5 * time.Second  // the request line and headers
	ReadTimeout       = 10 * time.Second // the whole request
	WriteTimeout      = 30 * time.Second // the whole answer (the HTML report is the largest)
	IdleTimeout       = 30 * time.Second // a keep-alive connection between requests
	MaxConns          = 64               // connections open at once
)

// ServeOptions configure Serve.
type ServeOptions struct {
	// Hosts are the Host header values (without port) served besides the
	// loopback names; "*" serves any. See HostAllowed.
	Hosts []string
	// MaxConns caps open connections (default MaxConns).
	MaxConns int
}

// Serve serves h on l until ctx ends, then shuts down (waiting at most
// 5s for requests in flight). It puts the Host allowlist in front of h,
// sets the timeouts above and caps the connections: at the cap, a new
// connection first evicts the connection that has been idle longest (one
// that sent nothing yet, or waits between keep-alive requests), and only
// when every connection is in the middle of a request does it wait for
// one to end. So held connections can neither exhaust the process's file
// descriptors (which the probe needs for its own connections) nor lock
// Prometheus out.
func Serve(ctx context.Context, l net.Listener, h http.Handler, o ServeOptions) error {
	max := o.MaxConns
	if max <= 0 {
		max = MaxConns
	}
	ll := newLimitListener(l, max)
	srv := &http.Server{
		Handler:           hostCheck(h, l.Addr(), o.Hosts),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    16 << 10,
		ConnState:         ll.connState,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ll) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	srv.Shutdown(shut)
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// HostAllowed reports whether a request's Host (with or without port) is
// one the watcher answers: a loopback name or address (localhost,
// 127.0.0.0/8, ::1), the address it listens on, or one of hosts ("*":
// any). Checking Host defeats DNS rebinding: a web page whose name an
// attacker points at 127.0.0.1 makes the browser send that name, not one
// of these.
func HostAllowed(host string, listen net.Addr, hosts []string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.ToLower(strings.TrimSuffix(strings.Trim(name, "[]"), "."))
	if name == "localhost" {
		return true
	}
	if ip := net.ParseIP(name); ip != nil {
		if ip.IsLoopback() {
			return true
		}
		if ta, ok := listen.(*net.TCPAddr); ok && !ta.IP.IsUnspecified() && ta.IP.Equal(ip) {
			return true
		}
	}
	for _, h := range hosts {
		if h == "*" || strings.EqualFold(strings.TrimSuffix(h, "."), name) {
			return true
		}
	}
	return false
}

// hostCheck answers 421 Misdirected Request to a Host the watcher does
// not serve, naming the flag that allows it.
func hostCheck(h http.Handler, listen net.Addr, hosts []string) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if !HostAllowed(r.Host, listen, hosts) {
			http.Error(rw, fmt.Sprintf("lockaudit probe -watch does not serve the host %q: add -allow-host NAME for each name Prometheus uses (loopback names and the listening address are always served)", r.Host), http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(rw, r)
	})
}

// limitListener caps the open connections of an http.Server whose
// ConnState hook is its connState.
type limitListener struct {
	net.Listener
	max int

	mu     sync.Mutex
	cond   *sync.Cond
	conns  map[net.Conn]connSlot
	closed bool
}

// connSlot is what the listener knows of an open connection.
type connSlot struct {
	idle  bool      // no request in progress: new (nothing read yet) or between requests
	since time.Time // when it became idle
}

func newLimitListener(l net.Listener, max int) *limitListener {
	ll := &limitListener{Listener: l, max: max, conns: map[net.Conn]connSlot{}}
	ll.cond = sync.NewCond(&ll.mu)
	return ll
}

// Accept waits for a free slot, evicting the longest-idle connection at
// the cap, then accepts.
func (l *limitListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	for len(l.conns) >= l.max && !l.closed {
		if c := l.oldestIdle(); c != nil {
			delete(l.conns, c)
			c.Close() // the server sees the close and reports StateClosed
			continue
		}
		l.cond.Wait()
	}
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.conns[c] = connSlot{idle: true, since: time.Now()}
	l.mu.Unlock()
	return c, nil
}

func (l *limitListener) oldestIdle() net.Conn {
	var oldest net.Conn
	var at time.Time
	for c, s := range l.conns {
		if s.idle && (oldest == nil || s.since.Before(at)) {
			oldest, at = c, s.since
		}
	}
	return oldest
}

// connState follows the server's connections (http.Server.ConnState).
func (l *limitListener) connState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.conns[c]; !ok {
		return // evicted already
	}
	switch s {
	case http.StateActive:
		l.conns[c] = connSlot{}
	case http.StateIdle:
		l.conns[c] = connSlot{idle: true, since: time.Now()}
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		l.cond.Broadcast()
	}
}

// Close stops accepting and wakes an Accept waiting for a slot.
func (l *limitListener) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}
