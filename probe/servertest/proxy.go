package servertest

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockaudit/lockaudit/probe/netguard"
)

// Proxy relays connections to a server on loopback, until Partition: from
// then on it drops every byte both ways and answers no new connection,
// holding every socket open — a network partition (packets lost, no reset)
// that loopback cannot make by itself.
type Proxy struct {
	Addr string

	cut   atomic.Bool
	mu    sync.Mutex
	conns []net.Conn
}

// StartProxy relays a new loopback port to addr (a loopback address) until
// the test ends.
func StartProxy(t testing.TB, addr string) *Proxy {
	t.Helper()
	if err := netguard.CheckLoopback(addr); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String()}
	t.Cleanup(func() {
		l.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.hold(c)
			if p.cut.Load() {
				go io.Copy(io.Discard, c)
				continue
			}
			up, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			p.hold(up)
			go p.relay(up, c)
			go p.relay(c, up)
		}
	}()
	return p
}

// Partition cuts every connection, present and future, without a word.
func (p *Proxy) Partition() { p.cut.Store(true) }

func (p *Proxy) hold(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, c)
}

// relay copies from src to dst until the partition, then drops what
// src sends.
func (p *Proxy) relay(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.cut.Load() {
			dst.Write(buf[:n])
		}
		if err != nil {
			if !p.cut.Load() {
				dst.Close()
			}
			return
		}
	}
}
