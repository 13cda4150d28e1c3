package linkproxy

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// TestHoldAndDrop: bytes the upstream sends after HoldData are held on a
// link that spoke REPLCONF (not on others), delivered in order on Pass,
// and dropped, never delivered, when the upstream closes while held.
func TestHoldAndDrop(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p, err := Start(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dial := func(first string) (client, server net.Conn) {
		c, err := net.Dial("tcp", p.Addr)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(first))
		buf := make([]byte, len(first))
		if _, err := io.ReadFull(s, buf); err != nil {
			t.Fatal(err)
		}
		return c, s
	}
	repl, replUp := dial("*1\r\n$8\r\nREPLCONF\r\n")
	other, otherUp := dial("*1\r\n$4\r\nPING\r\n")
	if p.Replicas() != 1 {
		t.Fatalf("%d replication links, want 1", p.Replicas())
	}
	p.SetMode(HoldData)
	replUp.Write([]byte("held"))
	otherUp.Write([]byte("free"))
	r := bufio.NewReader(other)
	got := make([]byte, 4)
	if _, err := io.ReadFull(r, got); err != nil || string(got) != "free" {
		t.Fatalf("a client link got %q, %v: only replication links are held", got, err)
	}
	waitHeld(t, p, 4)
	repl.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if n, _ := repl.Read(got); n != 0 {
		t.Fatalf("the replica got %q while held", got[:n])
	}
	repl.SetReadDeadline(time.Time{})
	p.SetMode(Pass)
	if _, err := io.ReadFull(repl, got); err != nil || string(got) != "held" {
		t.Fatalf("after Pass the replica got %q, %v", got, err)
	}
	p.SetMode(HoldData)
	replUp.Write([]byte("lost"))
	waitHeld(t, p, 4)
	replUp.Close()
	if n, err := io.ReadAll(repl); err != nil || len(n) != 0 {
		t.Fatalf("the replica got %q, %v after the primary closed: held bytes must be dropped", n, err)
	}
	if _, _, dropped := p.Held(); dropped != 4 {
		t.Errorf("dropped %d bytes, want 4", dropped)
	}
}

func waitHeld(t *testing.T, p *Proxy, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if h, _, _ := p.Held(); h == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the proxy never held %d bytes", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLoopbackOnly: the proxy forwards only to a loopback IP address.
// The refused upstreams would stay on this machine even if the guard
// failed: 0.0.0.0 (not loopback, but dialled as the local host) and a name
// (not an IP address at all).
func TestLoopbackOnly(t *testing.T) {
	for _, upstream := range []string{"0.0.0.0:6379", "localhost:6379"} {
		if p, err := Start(upstream); err == nil {
			p.Close()
			t.Errorf("upstream %s was accepted", upstream)
		}
	}
}
