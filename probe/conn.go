package probe

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/valkey-io/valkey-go"

	"github.com/lockaudit/lockaudit/probe/internal/framing"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/netguard"
)

// This file is the only one that talks to a server, and sendAll is the only
// function that sends a command: every command passes the connection's
// allowlist (checkReadOnly for the probe) first. valkey-go itself sends
// HELLO (with AUTH and SETNAME) on connect; CLIENT SETINFO is turned off,
// because a restricted probe user has no client|setinfo, and so are
// client-side caching, retries and TCP keep-alive. A node's facts are read
// with one DoMulti: one pipelined round trip after the handshake.

// ClientName is the connection name the probe sets (CLIENT LIST shows it).
const ClientName = "lockaudit-probe"

// dialer holds what every connection needs.
type dialer struct {
	user, password string
	tls            *tls.Config
	timeout        time.Duration // dial, handshake and each command
	resp2          bool
	redact         func(string) string
	netDial        netguard.DialFunc // opens TCP connections; nil: netguard.From(ctx), else net.Dialer
	limits         framing.Limits
}

// directDial is the dial function when neither the dialer nor the context
// names one.
var directDial = (&net.Dialer{KeepAlive: -1}).DialContext

// conn is one node's connection.
type conn struct {
	addr    string
	client  valkey.Client
	rtt     time.Duration // the handshake's round trip (HELLO): what TIME is corrected by
	timeout time.Duration
	redact  func(string) string
	// allow refuses what this connection may not send: checkReadOnly for
	// the probe; scan and conform bring their own (see Dialer).
	allow func(args []string) error
	nc    *netConns // the connections valkey-go dialled, closed by close
}

// netConns are the TCP connections valkey-go opened for one client (one,
// unless it reconnected), and when the last one was up.
type netConns struct {
	mu    sync.Mutex
	conns []net.Conn
	up    time.Time
}

func (n *netConns) add(c net.Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.conns = append(n.conns, c)
	n.up = time.Now()
}

func (n *netConns) closeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.conns {
		c.Close()
	}
	n.conns = nil
}

func (n *netConns) upAt() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.up
}

// connect opens the TCP connection valkey-go speaks over (its dial hook):
// TLS whenever the run has TLS (a discovered node is never contacted in
// plain text), verified against the name given or the address dialled, and
// every reply through the framing check.
func (d *dialer) connect(ctx context.Context, addr string, netDial netguard.DialFunc) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	raw, err := netDial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := raw
	if d.tls != nil {
		cfg := d.tls.Clone()
		if cfg.ServerName == "" {
			cfg.ServerName, _, _ = net.SplitHostPort(addr)
		}
		tc := tls.Client(raw, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			raw.Close()
			return nil, err
		}
		c = tc
	}
	return framing.Guard(c, d.limits), nil
}

// dial connects and authenticates, within the timeout and ctx. valkey-go's
// handshake honours Dialer.Timeout; the goroutine also gives up when ctx
// ends, so a server that accepts and never answers cannot hold the probe,
// and so does the TCP connect (a black-holed address), so that nothing
// dialled outlives the run.
func (d *dialer) dial(ctx context.Context, addr string) (*conn, error) {
	return d.dialAs(ctx, addr, ClientName, checkReadOnly)
}

// dialAs is dial with another connection name and allowlist.
func (d *dialer) dialAs(ctx context.Context, addr, name string, allow func([]string) error) (*conn, error) {
	if ended(ctx) { // the run is over: nothing more is dialled
		return nil, errors.New("not answered: " + Stopped(ctx))
	}
	netDial := d.netDial
	if netDial == nil {
		netDial = netguard.From(ctx)
	}
	if netDial == nil {
		netDial = directDial
	}
	ncs := &netConns{}
	opt := valkey.ClientOption{
		InitAddress:       []string{addr},
		ForceSingleClient: true,
		DisableCache:      true,
		DisableRetry:      true,
		ClientSetInfo:     []string{}, // no CLIENT SETINFO
		ClientName:        name,
		Username:          d.user,
		Password:          d.password,
		// TLS is done by connect, valkey-go's only way to a connection:
		// TLSConfig stays unset so nothing can dial around it.
		DialCtxFn: func(vctx context.Context, addr string, _ *net.Dialer, _ *tls.Config) (net.Conn, error) {
			// valkey-go's context knows nothing of the run's: the connect
			// ends with either.
			vctx, cancel := context.WithCancel(vctx)
			defer cancel()
			defer context.AfterFunc(ctx, cancel)()
			c, err := d.connect(vctx, addr, netDial)
			if err == nil {
				ncs.add(c)
			}
			return c, err
		},
		AlwaysRESP2:       d.resp2,
		Dialer:            net.Dialer{Timeout: d.timeout, KeepAlive: -1},
		ConnWriteTimeout:  d.timeout,
		PipelineMultiplex: -1, // one connection per node
		// A probe sends one batch at a time on a connection, a dozen
		// commands: a ring of two slots (instead of 1,024) and small
		// buffers. On a 40-node cluster they took the probe's CPU from 26
		// to 19 ms per run (ring 8 and 64/16 KiB before); a bulk reply
		// larger than the read buffer (CLUSTER NODES) is read past it.
		ReadBufferEachConn:  16 << 10,
		WriteBufferEachConn: 4 << 10,
		RingScaleEachConn:   1,
		BlockingPoolSize:    1, // the probe sends no blocking command
	}
	type result struct {
		c   valkey.Client
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := valkey.NewClient(opt)
		ch <- result{c, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			if r.c != nil {
				r.c.Close()
			}
			return nil, d.cleanErr(ctx, r.err)
		}
		var rtt time.Duration
		if up := ncs.upAt(); !up.IsZero() {
			rtt = time.Since(up) // the handshake, on the connection just up
		}
		return &conn{addr: addr, client: r.c, rtt: rtt, timeout: d.timeout, redact: d.redact, allow: allow, nc: ncs}, nil
	case <-ctx.Done():
		ncs.closeAll()
		go func() { // close it once the handshake gives up
			if r := <-ch; r.c != nil {
				r.c.Close()
			}
		}()
		return nil, d.cleanErr(ctx, ctx.Err())
	}
}

// cleanErr words a connection error for a person and removes any secret.
func (d *dialer) cleanErr(ctx context.Context, err error) error {
	msg := err.Error()
	switch {
	case ended(ctx):
		msg = "not answered: " + Stopped(ctx)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), strings.Contains(msg, "i/o timeout"):
		msg = "no answer within " + d.timeout.String() + " (-timeout): " + msg
	case errors.Is(err, valkey.ErrClosing):
		msg = "connection closed (" + msg + ")"
	}
	return errors.New(d.redact(strings.TrimSpace(msg)))
}

// close closes the TCP connection at once, so that at most -parallel are
// ever open, then lets valkey-go wind its client down: its Close would
// drain with a PING and wait a round trip for it, which a probe does not
// need and, on a closed connection, fails at once without a word to the
// server.
func (c *conn) close() {
	c.nc.closeAll()
	go c.client.Close()
}

// send sends one command; see sendAll.
func (c *conn) send(ctx context.Context, args ...string) (resp.Value, error) {
	vs, err := c.sendAll(ctx, [][]string{args})
	if err != nil {
		return resp.Value{}, err
	}
	return vs[0], nil
}

// sendAll is the one function that sends commands. It refuses the whole
// batch unless every command is on the connection's allowlist (the
// probe's: read-only, checkReadOnly), then sends them
// in one round trip. A server error reply comes back as a Value of Kind
// resp.Err; err is a refused command or a transport failure (timeout,
// closed connection), which fails the whole batch.
func (c *conn) sendAll(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	built := make(valkey.Commands, 0, len(cmds))
	for _, args := range cmds {
		if err := c.allow(args); err != nil {
			return nil, err
		}
		built = append(built, c.client.B().Arbitrary(args...).Build())
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	results := c.client.DoMulti(cctx, built...)
	out := make([]resp.Value, len(results))
	for i, r := range results {
		if err := r.NonValkeyError(); err != nil {
			if ended(ctx) {
				return nil, errors.New("not answered: " + Stopped(ctx))
			}
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, errors.New("no answer within " + c.timeout.String() + " (-timeout)")
			}
			return nil, errors.New(c.redact(err.Error()))
		}
		m, _ := r.ToMessage() // a server error or nil stays in m
		out[i] = fromValkey(&m, 0)
	}
	return out, nil
}

// fromValkey converts valkey-go's reply into the probe's Value. Maps come
// out with their keys sorted (valkey-go hands them over unordered); no
// parser depends on map order.
func fromValkey(m *valkey.ValkeyMessage, depth int) resp.Value {
	if depth > MaxReplyDepth {
		return resp.Value{Kind: resp.Err, Str: "reply nested too deep"}
	}
	switch {
	case m.IsNil():
		return resp.Value{Kind: resp.Nil}
	case m.Error() != nil:
		// valkey-go strips the "ERR " prefix; put it back so messages read
		// as the server wrote them ("NOPERM ..." keeps its own code).
		msg := m.Error().Error()
		if !isErrCode(msg) {
			msg = "ERR " + msg
		}
		return resp.Value{Kind: resp.Err, Str: msg}
	case m.IsInt64():
		n, _ := m.AsInt64()
		return resp.Value{Kind: resp.Int, Int: n}
	case m.IsBool():
		b, _ := m.AsBool()
		v := resp.Value{Kind: resp.Bool}
		if b {
			v.Int = 1
		}
		return v
	case m.IsArray():
		elems, _ := m.ToArray()
		v := resp.Value{Kind: resp.Array, Elems: make([]resp.Value, 0, len(elems))}
		for i := range elems {
			v.Elems = append(v.Elems, fromValkey(&elems[i], depth+1))
		}
		return v
	case m.IsMap():
		mm, err := m.ToMap()
		if err != nil {
			return resp.Value{Kind: resp.Err, Str: "unreadable map reply: " + err.Error()}
		}
		keys := make([]string, 0, len(mm))
		for k := range mm {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		v := resp.Value{Kind: resp.Map}
		for _, k := range keys {
			val := mm[k]
			v.Elems = append(v.Elems, resp.Value{Kind: resp.Str, Str: k}, fromValkey(&val, depth+1))
		}
		return v
	case m.IsFloat64():
		s, _ := m.ToString()
		return resp.Value{Kind: resp.Double, Str: s}
	}
	s, _ := m.ToString()
	if !m.IsString() && len(s) >= 4 && s[3] == ':' { // verbatim string: "txt:..."
		s = s[4:]
	}
	return resp.Value{Kind: resp.Str, Str: s}
}

// isErrCode reports whether msg starts with an upper-case error code such
// as NOPERM, WRONGPASS or LOADING (valkey-go keeps those).
func isErrCode(msg string) bool {
	code, _, _ := strings.Cut(msg, " ")
	if len(code) < 2 {
		return false
	}
	for _, c := range code {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}
