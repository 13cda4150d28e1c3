package framing

import (
	"net"
	"sync"
	"sync/atomic"
)

// Conn is a connection whose incoming bytes pass a Checker before anyone
// reads them. It also counts the commands written on it, so that a reply
// beyond the commands sent (which valkey-go's reader answered with a panic)
// is refused too. Deadlines, addresses and Close are the wrapped
// connection's.
type Conn struct {
	net.Conn
	in      *Checker
	out     *Checker // counts the commands written; trusted, never fails in practice
	pending atomic.Int64

	wmu sync.Mutex

	rmu    sync.Mutex // held by Read; Close takes it to return the buffers
	raw    []byte     // from bufPool on the first Read, until Close
	buf    []byte
	ready  []byte // checked bytes not yet read
	err    error  // sticky: the violation, or the wrapped connection's read error
	closed bool
}

// bufPool holds the read buffers of closed connections: a probe of
// thousands of nodes reads them all with as many buffers as it has
// connections open at once.
var bufPool = sync.Pool{New: func() any { return new([2][]byte) }}

const rawSize = 16 << 10

// commandLimits bound what the probe itself writes (only counted).
var commandLimits = Limits{MaxBulk: 1 << 30, MaxLine: 1 << 16, MaxAggregate: 1 << 20, MaxDepth: 4, MaxElems: 1 << 62, MaxTotal: 1 << 62}

// Guard wraps c so that every reply read from it is checked against lim.
func Guard(c net.Conn, lim Limits) *Conn {
	g := &Conn{Conn: c, in: New(lim), out: New(commandLimits)}
	g.out.drop = true
	g.out.Done = func() { g.pending.Add(1) }
	g.in.Begin = func() bool {
		if g.pending.Add(-1) < 0 {
			g.pending.Add(1)
			return false
		}
		return true
	}
	return g
}

// Read returns checked bytes only. A violation closes the wrapped
// connection and is returned (an *Error) from then on.
func (g *Conn) Read(p []byte) (int, error) {
	g.rmu.Lock()
	defer g.rmu.Unlock()
	if g.closed {
		return 0, net.ErrClosed
	}
	if g.raw == nil {
		bufs := bufPool.Get().(*[2][]byte)
		g.raw, g.buf = bufs[0], bufs[1][:0]
		if len(g.raw) < rawSize {
			g.raw = make([]byte, rawSize)
		}
	}
	for len(g.ready) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		n, err := g.Conn.Read(g.raw)
		out, cerr := g.in.Feed(g.raw[:n], g.buf[:0])
		g.buf = out[:0]
		if cerr != nil {
			g.err = cerr
			g.Conn.Close()
			return 0, cerr
		}
		g.ready = out
		if err != nil {
			g.err = err // after the checked bytes already here
		}
	}
	n := copy(p, g.ready)
	g.ready = g.ready[n:]
	return n, nil
}

// Write counts the complete commands in p before sending them, so the
// count is up when their replies can arrive.
func (g *Conn) Write(p []byte) (int, error) {
	g.wmu.Lock()
	g.out.Feed(p, nil)
	g.wmu.Unlock()
	return g.Conn.Write(p)
}

// Close closes the wrapped connection (which ends a Read under way), then
// gives the read buffers back for the next connection.
func (g *Conn) Close() error {
	err := g.Conn.Close()
	g.rmu.Lock()
	defer g.rmu.Unlock()
	if !g.closed && g.raw != nil {
		bufPool.Put(&[2][]byte{g.raw, g.buf[:0]})
	}
	g.closed, g.raw, g.buf, g.ready = true, nil, nil, nil
	return err
}
