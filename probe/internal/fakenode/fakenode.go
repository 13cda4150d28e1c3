// Package fakenode is a fake Valkey node for tests of what a real server
// cannot do: send garbage, announce ten thousand members, keep a SCAN
// cursor going forever; and members at black-holed addresses, which
// loopback cannot make. It answers the handshake like a real Valkey 9.1
// (HELLO 3) and every other command with what a Reply returns for it. It
// listens on loopback only and stops when the test ends.
package fakenode

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/netguard"
)

// Hello is a real Valkey 9.1.2 answer to HELLO 3.
const Hello = "%7\r\n$6\r\nserver\r\n$6\r\nvalkey\r\n$7\r\nversion\r\n$5\r\n9.1.2\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:5\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"

// Reply answers one command (its words, the verb upper-cased). A reply
// that ends with HangUp is sent without it, and the node hangs up; nil
// hangs up without a word.
type Reply func(cmd []string) []byte

// HangUp ends a reply after which the node closes the connection.
const HangUp = "\x00hang up\x00"

// WithHello answers HELLO like a real server and everything else with r.
func WithHello(r Reply) Reply {
	return func(cmd []string) []byte {
		if cmd[0] == "HELLO" {
			return []byte(Hello)
		}
		return r(cmd)
	}
}

// Serve speaks to one client until it leaves or reply returns nil.
func Serve(c net.Conn, reply Reply) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		v, err := resp.Read(r)
		if err != nil || v.Kind != resp.Array || len(v.Elems) == 0 {
			return
		}
		cmd := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			cmd[i] = e.Str
		}
		cmd[0] = strings.ToUpper(cmd[0])
		out := reply(cmd)
		if out == nil {
			return
		}
		last := bytes.HasSuffix(out, []byte(HangUp))
		if _, err := c.Write(bytes.TrimSuffix(out, []byte(HangUp))); err != nil || last {
			return
		}
	}
}

// Start listens on a loopback port and serves every connection with
// reply; it stops when the test ends.
func Start(t testing.TB, reply Reply) string {
	t.Helper()
	addr, _ := listen(t, func(c net.Conn) { go Serve(c, reply) })
	return addr
}

// listen listens on a loopback port and hands each connection it accepts
// to serve; every connection is closed when the test ends. accepted says
// how many it has accepted so far.
func listen(t testing.TB, serve func(net.Conn)) (addr string, accepted func() int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			serve(c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String(), func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(conns)
	}
}

// Bulk is s as a RESP bulk string.
func Bulk(s string) []byte { return fmt.Appendf(nil, "$%d\r\n%s\r\n", len(s), s) }

// Cluster answers like a Valkey 9.1 cluster primary (INFO server, ROLE,
// INFO replication) whose CLUSTER NODES lists itself and the primaries at
// addrs; any other command gets an unknown-command error.
func Cluster(addrs []string) Reply {
	var nodes strings.Builder
	nodes.WriteString("0000000000000000000000000000000000000000 127.0.0.1:1@2 myself,master - 0 0 1 connected 0-16383\n")
	for i, a := range addrs {
		fmt.Fprintf(&nodes, "%040d %s@17000 master - 0 0 1 connected\n", i+1, a)
	}
	view := nodes.String()
	return func(cmd []string) []byte {
		switch strings.Join(cmd, " ") {
		case "INFO server":
			return Bulk("# Server\r\nvalkey_version:9.1.2\r\nserver_name:valkey\r\nserver_mode:cluster\r\nrun_id:fake\r\n")
		case "ROLE":
			return []byte("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n")
		case "INFO replication":
			return Bulk("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n")
		case "CLUSTER NODES":
			return Bulk(view)
		}
		return []byte("-ERR unknown command\r\n")
	}
}

// Members are n-1 cluster member addresses on loopback where nothing
// listens (127.77.x.y: the test servers bind 127.0.0.1 only), for Cluster.
func Members(n int) []string {
	var addrs []string
	for i := 1; i < n; i++ {
		addrs = append(addrs, fmt.Sprintf("127.77.%d.%d:%d", i/250%250, i%250+1, 7000+i/62500))
	}
	return addrs
}

// Unanswered reports whether addr is one of Members' addresses.
func Unanswered(addr string) bool { return strings.HasPrefix(addr, "127.77.") }

// Standalone answers like a Valkey 9.1 standalone primary without
// replicas (INFO server, INFO replication, ROLE, CLUSTER MYID: cluster
// support disabled), and every other command with more.
func Standalone(more Reply) Reply {
	return func(cmd []string) []byte {
		switch strings.Join(cmd, " ") {
		case "INFO server":
			return Bulk("# Server\r\nvalkey_version:9.1.2\r\nserver_name:valkey\r\nserver_mode:standalone\r\nrun_id:fake-standalone\r\n")
		case "INFO replication":
			return Bulk("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n")
		case "INFO scriptingengines":
			return Bulk("# Scripting Engines\r\nengines_count:1\r\nengine_0:name=LUA,module=lua\r\n")
		case "ROLE":
			return []byte("*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n")
		case "CLUSTER MYID":
			return []byte("-ERR This instance has cluster support disabled\r\n")
		}
		return more(cmd)
	}
}

// Silent listens on a loopback port, accepts every connection and never
// answers (a hung node: each attempt on it costs a client its timeout);
// accepted says how many connections it has accepted so far.
func Silent(t testing.TB) (addr string, accepted func() int) {
	t.Helper()
	return listen(t, func(net.Conn) {}) // held open, never read or written
}

// Holes is a loopback guard (netguard) under which Members' addresses are
// black-holed: a dial to one waits until its context ends, as a connect
// to an address that drops packets does. It counts the dials of each,
// and those still waiting.
type Holes struct {
	mu      sync.Mutex
	dials   map[string]int
	waiting int
}

// BlackHoled returns a context whose dial function black-holes Members'
// addresses and lets every other loopback address through.
func BlackHoled(t testing.TB) (context.Context, *Holes) {
	guard := netguard.LoopbackOnly(func(err error) { t.Error(err) })
	h := &Holes{dials: map[string]int{}}
	return netguard.With(context.Background(), func(ctx context.Context, network, addr string) (net.Conn, error) {
		if !Unanswered(addr) {
			return guard(ctx, network, addr)
		}
		h.mu.Lock()
		h.dials[addr]++
		h.waiting++
		h.mu.Unlock()
		<-ctx.Done()
		h.mu.Lock()
		h.waiting--
		h.mu.Unlock()
		return nil, ctx.Err()
	}), h
}

// Redialled lists the addresses dialled more than once.
func (h *Holes) Redialled() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for a, n := range h.dials {
		if n > 1 {
			out = append(out, fmt.Sprintf("%s (%d times)", a, n))
		}
	}
	return out
}

// WantNoneWaiting fails when a dial still waits after the run that
// started it returned: every dial ends with the run's context, not with
// -timeout (give the run a -timeout well over 10 s).
func (h *Holes) WantNoneWaiting(t testing.TB) {
	t.Helper()
	n := 0
	for range 500 { // a dial ends shortly after the context it watches: up to 10 s
		h.mu.Lock()
		n = h.waiting
		h.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%d dials still wait after the run returned", n)
}
