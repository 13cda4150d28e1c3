package probe

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/framing"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/netguard"
)

// This file is the only one that talks to a server. A connection is the
// probe's own: TCP (TLS whenever the run has TLS), every reply through the
// framing check, RESP3 after one HELLO that authenticates and names the
// connection (RESP2 with -resp2, or for a server that knows no HELLO).
// handshake sends that HELLO (or AUTH and CLIENT SETNAME); sendAll sends
// everything else, and only what passes the connection's allowlist
// (checkReadOnly for the probe). Nothing else is ever sent: no CLIENT
// SETINFO, no CLIENT TRACKING, no keep-alive or closing PING.
//
// The probe spoke through valkey-go before; a client library's connection
// machinery (a pipe, a ring of a few hundred slots, two buffers and a map
// for every reply) cost two and a half times the CPU of the probe's own
// reading of a node, and a 40-node cluster was bound by it.

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

// conn is one node's connection. Its methods are safe for one batch at a
// time: a batch holds the connection until its replies are read.
type conn struct {
	addr    string
	nc      net.Conn // checked by the framing check; TLS inside when on
	r       *bufio.Reader
	wbuf    []byte
	rtt     time.Duration // the handshake's round trip
	timeout time.Duration
	redact  func(string) string
	// allow refuses what this connection may not send: checkReadOnly for
	// the probe; scan and conform bring their own (see Dialer).
	allow func(args []string) error

	mu     sync.Mutex
	broken error // a transport failure or refused reply: every later batch fails with it
}

// connect opens the TCP connection: TLS whenever the run has TLS (a
// discovered node is never contacted in plain text), verified against the
// name given or the address dialled, and every reply through the framing
// check.
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

// dial connects and authenticates, within the timeout and ctx.
func (d *dialer) dial(ctx context.Context, addr string) (*conn, error) {
	return d.dialAs(ctx, addr, ClientName, checkReadOnly)
}

// dialAs is dial with another connection name and allowlist.
func (d *dialer) dialAs(ctx context.Context, addr, name string, allow func([]string) error) (*conn, error) {
	netDial := d.netDial
	if netDial == nil {
		netDial = netguard.From(ctx)
	}
	if netDial == nil {
		netDial = directDial
	}
	nc, err := d.connect(ctx, addr, netDial)
	if err != nil {
		return nil, d.cleanErr(ctx, err)
	}
	r := readerPool.Get().(*bufio.Reader)
	r.Reset(nc)
	c := &conn{addr: addr, nc: nc, r: r, timeout: d.timeout, redact: d.redact, allow: allow}
	if err := c.handshake(ctx, d.user, d.password, name, d.resp2); err != nil {
		c.close()
		return nil, d.cleanErr(ctx, err)
	}
	return c, nil
}

// noHello is the answer of a server (or proxy) that has no HELLO.
var noHello = regexp.MustCompile("unknown command .?(HELLO|hello).?")

// handshake authenticates and names the connection in one round trip, and
// times it (TIME is corrected by it): HELLO 3 AUTH user password SETNAME
// name. A server without HELLO, and -resp2, get RESP2 instead: AUTH and
// CLIENT SETNAME (after a HELLO 2, which a proxy without HELLO may refuse).
// A password without a user authenticates the default user.
func (c *conn) handshake(ctx context.Context, user, password, name string, resp2 bool) error {
	if !resp2 {
		hello := []string{"HELLO", "3"}
		if password != "" || user != "" {
			u := user
			if u == "" {
				u = "default"
			}
			hello = append(hello, "AUTH", u, password)
		}
		if name != "" {
			hello = append(hello, "SETNAME", name)
		}
		start := time.Now()
		vs, err := c.exchange(ctx, [][]string{hello})
		if err != nil {
			return err
		}
		c.rtt = time.Since(start)
		switch v := vs[0]; {
		case v.Kind == resp.Map || v.Kind == resp.Array:
			return nil
		case v.Kind != resp.Err:
			return c.refuse(errors.New("the answer to HELLO is not a map: " + v.String()))
		case !noHello.MatchString(v.Str):
			return c.refuse(errors.New(v.Str))
		}
	}
	var cmds [][]string
	switch {
	case password != "" && user == "":
		cmds = append(cmds, []string{"AUTH", password})
	case user != "":
		cmds = append(cmds, []string{"AUTH", user, password})
	}
	hello := -1
	if resp2 {
		hello = len(cmds)
		cmds = append(cmds, []string{"HELLO", "2"})
	}
	if name != "" {
		cmds = append(cmds, []string{"CLIENT", "SETNAME", name})
	}
	if len(cmds) == 0 {
		return nil
	}
	start := time.Now()
	vs, err := c.exchange(ctx, cmds)
	if err != nil {
		return err
	}
	if c.rtt == 0 {
		c.rtt = time.Since(start)
	}
	for i, v := range vs {
		if v.Kind == resp.Err && !(i == hello && noHello.MatchString(v.Str)) {
			return c.refuse(errors.New(v.Str))
		}
	}
	return nil
}

// cleanErr words a connection error for a person and removes any secret.
func (d *dialer) cleanErr(ctx context.Context, err error) error {
	msg := err.Error()
	switch {
	case ended(ctx):
		msg = "not answered: " + stopped(ctx)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), strings.Contains(msg, "i/o timeout"):
		msg = "no answer within " + d.timeout.String() + " (-timeout): " + msg
	}
	return errors.New(d.redact(strings.TrimSpace(msg)))
}

// errDeadline ends a run's context when -deadline passes; any other end
// is the caller's (Ctrl-C), which is never worded as the deadline.
var errDeadline = errors.New("the overall deadline (-deadline) passed first")

// stopped says why ctx ended: the run's deadline, or an interruption.
func stopped(ctx context.Context) string {
	if context.Cause(ctx) == errDeadline || (ctx.Err() == nil && ended(ctx)) {
		return errDeadline.Error()
	}
	return "the probe was interrupted"
}

// ended reports whether ctx has ended, or its deadline has passed: a socket
// deadline set from it can fire before ctx's own timer marks it done.
func ended(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// close closes the connection at once (so that at most -parallel are ever
// open), without a word to the server.
func (c *conn) close() {
	c.nc.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.r != nil {
		c.r.Reset(nil)
		readerPool.Put(c.r)
		c.r = nil
		if c.broken == nil {
			c.broken = net.ErrClosed
		}
	}
}

// readerPool holds the readers of closed connections.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4<<10) }}

// send sends one command; see sendAll.
func (c *conn) send(ctx context.Context, args ...string) (resp.Value, error) {
	vs, err := c.sendAll(ctx, [][]string{args})
	if err != nil {
		return resp.Value{}, err
	}
	return vs[0], nil
}

// sendAll is the one function that sends commands after the handshake. It
// refuses the whole batch unless every command is on the connection's
// allowlist (the probe's: read-only, checkReadOnly), then sends them in one
// round trip. A server error reply comes back as a Value of Kind resp.Err;
// err is a refused command or a transport failure (timeout, closed
// connection, a reply the framing check refused), which fails the whole
// batch and every later one.
func (c *conn) sendAll(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	if err := c.allowAll(cmds); err != nil {
		return nil, err
	}
	return c.exchange(ctx, cmds)
}

func (c *conn) allowAll(cmds [][]string) error {
	for _, args := range cmds {
		if err := c.allow(args); err != nil {
			return err
		}
	}
	return nil
}

// exchange writes the commands at once and reads one reply to each, all
// within the timeout and ctx (whose end aborts the wait at once).
func (c *conn) exchange(ctx context.Context, cmds [][]string) ([]resp.Value, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	deadline := time.Now().Add(c.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.nc.SetDeadline(deadline); err != nil {
		return nil, c.fail(ctx, err)
	}
	stop := context.AfterFunc(ctx, func() { c.nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c.wbuf = c.wbuf[:0]
	for _, args := range cmds {
		c.wbuf = appendCommand(c.wbuf, args)
	}
	if _, err := c.nc.Write(c.wbuf); err != nil { // the one write to a server
		return nil, c.fail(ctx, err)
	}
	out := make([]resp.Value, len(cmds))
	for i := range out {
		v, err := resp.Read(c.r)
		if err != nil {
			return nil, c.fail(ctx, err)
		}
		out[i] = v
	}
	return out, nil
}

// fail words a transport failure, closes the connection and makes every
// later batch fail the same way.
func (c *conn) fail(ctx context.Context, err error) error {
	msg := c.redact(err.Error())
	switch {
	case ended(ctx):
		msg = "not answered: " + stopped(ctx)
	case errors.Is(err, os.ErrDeadlineExceeded):
		msg = "no answer within " + c.timeout.String() + " (-timeout)"
	}
	c.broken = errors.New(msg)
	c.nc.Close()
	return c.broken
}

// refuse ends a connection whose handshake the server refused.
func (c *conn) refuse(err error) error {
	c.nc.Close()
	return errors.New(c.redact(err.Error()))
}

// appendCommand appends a command as RESP: an array of bulk strings.
func appendCommand(b []byte, args []string) []byte {
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	return b
}
