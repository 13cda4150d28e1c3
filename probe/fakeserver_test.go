package probe

import (
	"bufio"
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
)

// A fake server is only for what a real one cannot do: send garbage,
// announce a hundred thousand members. It answers the handshake like a
// real Valkey 9.1 (HELLO 3) and every command with what reply returns for
// it; nil closes the connection.

// helloReply is a real Valkey 9.1.2 answer to HELLO 3.
const helloReply = "%7\r\n$6\r\nserver\r\n$6\r\nvalkey\r\n$7\r\nversion\r\n$5\r\n9.1.2\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:5\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"

// replyFunc answers one command (its words, upper-cased verb). A reply
// that ends with hangUp is sent without it, and the server hangs up.
type replyFunc func(cmd []string) []byte

const hangUp = "\x00hang up\x00"

// withHello answers HELLO like a real server and everything else with r.
func withHello(r replyFunc) replyFunc {
	return func(cmd []string) []byte {
		if cmd[0] == "HELLO" {
			return []byte(helloReply)
		}
		return r(cmd)
	}
}

// serveFake speaks to one client until it leaves or reply returns nil.
func serveFake(c net.Conn, reply replyFunc) {
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
		last := bytes.HasSuffix(out, []byte(hangUp))
		if _, err := c.Write(bytes.TrimSuffix(out, []byte(hangUp))); err != nil || last {
			return
		}
	}
}

// startFake listens on a loopback port and serves every connection with
// reply; it stops when the test ends.
func startFake(t testing.TB, reply replyFunc) string {
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
			go serveFake(c, reply)
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
	return l.Addr().String()
}
