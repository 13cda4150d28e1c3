package resp

import (
	"bufio"
	"fmt"
	"net"
	"time"

	"github.com/lockaudit/lockaudit/probe/netguard"
)

// Conn is a plain, unrestricted connection for test tooling (servertest's
// admin commands, recording replies). The probe itself never uses it: it
// talks to servers through valkey-go behind its read-only allowlist.
type Conn struct {
	c       net.Conn
	r       *bufio.Reader
	timeout time.Duration
}

// Dial connects to addr; every command must answer within timeout. It
// refuses any address but a loopback one: its users are tests and the
// servers localfleet starts, all on this machine.
func Dial(addr string, timeout time.Duration) (*Conn, error) {
	if err := netguard.CheckLoopback(addr); err != nil {
		return nil, err
	}
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	return &Conn{c: c, r: bufio.NewReader(c), timeout: timeout}, nil
}

// Do sends one command and reads its reply. A server error is returned as a
// Value of Kind Err, not as an error.
func (c *Conn) Do(args ...string) (Value, error) {
	raw, err := c.DoRaw(args...)
	if err != nil {
		return Value{}, err
	}
	return Parse(raw)
}

// DoRaw sends one command and returns its reply exactly as the server sent
// it, for recording.
func (c *Conn) DoRaw(args ...string) ([]byte, error) {
	if err := c.c.SetDeadline(time.Now().Add(c.timeout)); err != nil {
		return nil, err
	}
	if err := Write(c.c, args...); err != nil {
		return nil, err
	}
	rec := &recorder{r: c.r}
	if _, err := Read(bufio.NewReaderSize(rec, 16)); err != nil {
		return nil, fmt.Errorf("reading the reply to %s: %w", args[0], err)
	}
	return rec.buf, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// recorder hands the reader's bytes through one at a time, keeping a copy,
// so DoRaw captures exactly one reply and leaves the rest buffered.
type recorder struct {
	r   *bufio.Reader
	buf []byte
}

func (r *recorder) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	b, err := r.r.ReadByte()
	if err != nil {
		return 0, err
	}
	p[0] = b
	r.buf = append(r.buf, b)
	return 1, nil
}

// NewConn wraps a connection the caller opened (and checked: lockaudit
// drill -against reaches a staging fleet the user named).
func NewConn(c net.Conn, timeout time.Duration) *Conn {
	return &Conn{c: c, r: bufio.NewReader(c), timeout: timeout}
}
