// Package linkproxy is a loopback TCP proxy in front of a Valkey primary
// that can hold back the replication link, byte-exactly and on command: the
// deterministic means by which the failover drill makes a replica miss a
// write. Every client (Sentinels, the drill's actors) reaches the primary
// through the proxy, so Sentinel sees the replica replicate from the address
// it monitors; only connections that speak REPLCONF (a replica's link) can
// be held. When the primary goes away, what was held is dropped, never
// delivered: the replica never sees it, as after a real partition.
package linkproxy

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/probe/netguard"
)

// Mode is what the proxy does with a replication link.
type Mode int

const (
	// Pass forwards everything.
	Pass Mode = iota
	// HoldData holds the primary's stream to the replica (the writes); the
	// replica's acknowledgements still reach the primary, which counts it
	// as a good, current replica.
	HoldData
	// HoldLink holds both directions: the primary stops hearing from the
	// replica too (its lag grows, as in a partition).
	HoldLink
)

// Proxy forwards connections from its loopback listener to Upstream.
type Proxy struct {
	Addr     string // 127.0.0.1:PORT, where clients connect
	Upstream string

	ln      net.Listener
	mu      sync.Mutex
	mode    Mode
	conns   map[*link]bool
	dropped int64 // held bytes discarded because the link closed
	closed  bool
	wg      sync.WaitGroup
}

// link is one proxied connection.
type link struct {
	client, server net.Conn
	replication    bool      // the client sent REPLCONF: a replica's link
	held           [2][]byte // by direction: 0 primary→replica, 1 replica→primary
}

// Start listens on a free loopback port and forwards to upstream, which
// must be a loopback address.
func Start(upstream string) (*Proxy, error) {
	if err := netguard.CheckLoopback(upstream); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{Addr: ln.Addr().String(), Upstream: upstream, ln: ln, conns: map[*link]bool{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.DialTimeout("tcp", p.Upstream, 5*time.Second)
		if err != nil {
			c.Close() // the primary is gone: refuse as it would
			continue
		}
		l := &link{client: c, server: s}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			s.Close()
			return
		}
		p.conns[l] = true
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pump(l, 0)
		go p.pump(l, 1)
	}
}

var replconf = []byte("replconf")

// pump copies one direction: 0 server→client, 1 client→server. A chunk
// read while the link is held is kept, not forwarded; the check happens
// after the read returns, so every byte the server sent after Hold
// returned is held.
func (p *Proxy) pump(l *link, dir int) {
	defer p.wg.Done()
	from, to := l.server, l.client
	if dir == 1 {
		from, to = l.client, l.server
	}
	var tail []byte // the last bytes seen, to find REPLCONF across reads
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			p.mu.Lock()
			if dir == 1 && !l.replication {
				seen := append(tail, bytes.ToLower(chunk)...)
				if bytes.Contains(seen, replconf) {
					l.replication = true
				}
				tail = append([]byte(nil), seen[max(0, len(seen)-len(replconf)):]...)
			}
			if l.replication && p.holds(dir) {
				l.held[dir] = append(l.held[dir], chunk...)
				p.mu.Unlock()
				continue
			}
			p.mu.Unlock()
			if _, werr := to.Write(chunk); werr != nil {
				err = werr
			}
		}
		if err != nil {
			p.closeLink(l)
			return
		}
	}
}

// holds tells whether direction dir of a replication link is held now.
func (p *Proxy) holds(dir int) bool {
	return p.mode == HoldLink || (p.mode == HoldData && dir == 0)
}

// closeLink closes both sides and drops what was held.
func (p *Proxy) closeLink(l *link) {
	p.mu.Lock()
	if p.conns[l] {
		delete(p.conns, l)
		p.dropped += int64(len(l.held[0]) + len(l.held[1]))
		l.held = [2][]byte{}
	}
	p.mu.Unlock()
	l.client.Close()
	l.server.Close()
}

// SetMode changes what the proxy does with replication links. Going back
// to Pass delivers what was held, in order.
func (p *Proxy) SetMode(m Mode) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	var errs []error
	for l := range p.conns {
		if !l.replication {
			continue
		}
		for dir, to := range []net.Conn{l.client, l.server} {
			if len(l.held[dir]) > 0 && !p.holds(dir) {
				_, err := to.Write(l.held[dir])
				errs = append(errs, err)
				l.held[dir] = nil
			}
		}
	}
	return errors.Join(errs...)
}

// Held returns the bytes held now in each direction (primary→replica,
// replica→primary) and the bytes dropped so far with closed links.
func (p *Proxy) Held() (toReplica, toPrimary, dropped int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for l := range p.conns {
		toReplica += int64(len(l.held[0]))
		toPrimary += int64(len(l.held[1]))
	}
	return toReplica, toPrimary, p.dropped
}

// Replicas returns how many replication links are open.
func (p *Proxy) Replicas() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for l := range p.conns {
		if l.replication {
			n++
		}
	}
	return n
}

// Close stops listening, closes every link (dropping what was held) and
// waits for its goroutines.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	var ls []*link
	for l := range p.conns {
		ls = append(ls, l)
	}
	p.mu.Unlock()
	err := p.ln.Close()
	for _, l := range ls {
		p.closeLink(l)
	}
	p.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

var _ io.Closer = (*Proxy)(nil)
