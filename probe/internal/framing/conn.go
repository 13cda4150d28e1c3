package framing

import (
	"net"
	"sync"
	"sync/atomic"
)

// Conn is a connection whose incoming bytes pass a Checker before anyone
// reads them. It also counts the commands written on it, so that a reply
// beyond the commands sent (which valkey-go's reader answers with a panic)
// is refused too. Deadlines, addresses and Close are the wrapped
// connection's.
type Conn struct {
	net.Conn
	in      *Checker
	out     *Checker // counts the commands written; trusted, never fails in practice
	pending atomic.Int64

	wmu sync.Mutex

	raw   []byte
	buf   []byte
	ready []byte // checked bytes not yet read
	err   error  // sticky: the violation, or the wrapped connection's read error
}

// commandLimits bound what the probe itself writes (only counted).
var commandLimits = Limits{MaxBulk: 1 << 30, MaxLine: 1 << 16, MaxAggregate: 1 << 20, MaxDepth: 4, MaxElems: 1 << 62, MaxTotal: 1 << 62}

// Guard wraps c so that every reply read from it is checked against lim.
func Guard(c net.Conn, lim Limits) *Conn {
	g := &Conn{Conn: c, in: New(lim), out: New(commandLimits), raw: make([]byte, 16<<10)}
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
