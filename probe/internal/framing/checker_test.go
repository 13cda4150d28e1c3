package framing

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testLimits = Limits{MaxBulk: 1 << 10, MaxLine: 64, MaxAggregate: 100, MaxDepth: 4, MaxElems: 1000, MaxTotal: 1 << 16}

// feed runs data through a fresh checker in chunks of size n (0: all at
// once) and returns what it handed on and how many replies ended.
func feed(t *testing.T, lim Limits, data []byte, n int) ([]byte, int, error) {
	t.Helper()
	c := New(lim)
	done := 0
	c.Done = func() { done++ }
	var out []byte
	var err error
	if n <= 0 {
		n = len(data)
	}
	for len(data) > 0 && err == nil {
		k := min(n, len(data))
		out, err = c.Feed(data[:k], out)
		data = data[k:]
	}
	return out, done, err
}

// TestRecordedRepliesPass: every reply recorded from a real server (both
// protocols, every version) passes unchanged under the probe's real limits'
// shape, whole and split into 1- and 7-byte chunks.
func TestRecordedRepliesPass(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "replies", "*", "*", "*.resp"))
	if len(files) < 100 {
		t.Fatalf("found %d recorded replies, want the full set", len(files))
	}
	lim := Limits{MaxBulk: 8 << 20, MaxLine: 64 << 10, MaxAggregate: 100_000, MaxDepth: 32, MaxElems: 1 << 19, MaxTotal: 16 << 20}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 7} {
			out, done, err := feed(t, lim, data, n)
			if err != nil || done != 1 || !bytes.Equal(out, data) {
				t.Errorf("%s (chunks of %d): err %v, %d replies, handed on %d of %d bytes", f, n, err, done, len(out), len(data))
			}
		}
	}
}

func TestValidFraming(t *testing.T) {
	for _, tt := range []struct {
		data    string
		replies int
	}{
		{"+OK\r\n", 1},
		{"+\r\n", 1},
		{"-ERR unknown command\r\n", 1},
		{":0\r\n:-12\r\n", 2},
		{"$-1\r\n*-1\r\n_\r\n", 3},
		{"$0\r\n\r\n", 1},
		{"$5\r\nhel\nl\r\n", 1},             // a bulk may hold anything
		{"-ERR \x1b]0;SAFE\a\rSAFE\r\n", 1}, // a CR in an error is kept (the reports escape it)
		{"=8\r\ntxt:abcd\r\n", 1},
		{"!3\r\nERR\r\n", 1},
		{"#t\r\n#f\r\n", 2},
		{",1.5\r\n,inf\r\n,-nan\r\n(123456789012345678901234567890\r\n", 4},
		{"*2\r\n$1\r\na\r\n*1\r\n:1\r\n", 1},
		{"%1\r\n+k\r\n~2\r\n:1\r\n:2\r\n", 1},
		{"*0\r\n%0\r\n~0\r\n", 3},
		{"*1\r\n*2\r\n*1\r\n*1\r\n:1\r\n:2\r\n", 1}, // depth 4
	} {
		for _, n := range []int{0, 1, 3} {
			out, done, err := feed(t, testLimits, []byte(tt.data), n)
			if err != nil || done != tt.replies || string(out) != tt.data {
				t.Errorf("%q (chunks of %d): err %v, %d replies (want %d), handed on %q", tt.data, n, err, done, tt.replies, out)
			}
		}
	}
}

// TestAttacks: each reply that crashes, exhausts or confuses valkey-go's
// reader is refused, with a message that says what was wrong, before the
// line that carries it is handed on.
func TestAttacks(t *testing.T) {
	nested := strings.Repeat("*1\r\n", 3_000_000)
	elems10 := strings.Repeat("*100\r\n"+strings.Repeat("_\r\n", 100), 10)
	bulk64 := strings.Repeat("$1000\r\n"+strings.Repeat("x", 1000)+"\r\n", 64)
	for _, tt := range []struct {
		name, data, want string
		out              string // what is handed on before the refusal
	}{
		{"negative bulk length", "$-2\r\n", `a negative length in "$-2\r\n"`, ""},
		{"negative array length", "*-2\r\n", `a negative length in "*-2\r\n"`, ""},
		{"negative map length", "%-3\r\n", `a negative length in "%-3\r\n"`, ""},
		{"null map", "%-1\r\n", `a negative length in "%-1\r\n"`, ""},
		{"null set", "~-1\r\n", `a negative length in "~-1\r\n"`, ""},
		{"huge bulk", "$99999999999\r\n", "a bulk string of 99999999999 bytes is over the 1 KiB limit", ""},
		{"huge array", "*2000000000\r\n", "an aggregate of 2000000000 elements is over the 100-element limit", ""},
		{"huge map", "%60\r\n", "an aggregate of 120 elements is over the 100-element limit", ""},
		{"overflowing length", "$99999999999999999999\r\n", "a bad length", ""},
		{"deep nesting", nested, "aggregates nested deeper than 4 levels", strings.Repeat("*1\r\n", 4)},
		{"elements over the connection", elems10 + "*100\r\n", "more than 1000 elements declared on one connection", elems10},
		{"bytes over the connection", bulk64 + "$1000\r\n", "more than 64 KiB", bulk64},
		{"long line", "+" + strings.Repeat("a", 100) + "\r\n", "a line longer than 64 bytes", ""},
		{"endless line", "+" + strings.Repeat("a", 100), "a line longer than 64 bytes", ""},
		{"bare LF", "+OK\n", "not of the form TYPE...CRLF", ""},
		{"CR inside a number", ":1\r2\r\n", "a bad integer", ""},
		{"CR inside a length", "$1\r2\r\n", "a bad length", ""},
		{"empty line", "\r\n", "not of the form", ""},
		{"bad integer", ":12a\r\n", "a bad integer", ""},
		{"integer overflow", ":99999999999999999999\r\n", "a bad integer", ""},
		{"bad boolean", "#x\r\n", "a bad boolean", ""},
		{"bad double", ",1x\r\n", "a bad double", ""},
		{"bad null", "_x\r\n", "a bad null", ""},
		{"bulk without CRLF", "$3\r\nabcde", "not followed by CRLF", "$3\r\nabc"},
		{"verbatim without format", "=2\r\nab\r\n", "without its format", ""},
		{"verbatim with a bad format", "=5\r\nabcde\r\n", "without its format", "=5\r\nabc"},
		{"integer with a plus", ":+5\r\n", "a bad integer", ""},
		{"streamed string", "$?\r\n;3\r\nabc\r\n;0\r\n", "a streamed RESP3 reply", ""},
		{"streamed array", "*?\r\n:1\r\n.\r\n", "a streamed RESP3 reply", ""},
		{"stream end", ".\r\n", "an unknown reply type", ""},
		{"push", ">2\r\n$7\r\nmessage\r\n:1\r\n", "a push message", ""},
		{"nested push", "*1\r\n>1\r\n:1\r\n", "a push message", "*1\r\n"},
		{"attribute", "|1\r\n+a\r\n+b\r\n+OK\r\n", "an attribute", ""},
		{"unknown type", "?1\r\n", "an unknown reply type", ""},
		{"binary junk", "\x00\x01\x02\r\n", "an unknown reply type", ""},
	} {
		out, _, err := feed(t, testLimits, []byte(tt.data), 0)
		var fe *Error
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want one containing %q", tt.name, err, tt.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "reply refused (framing check): ") {
			t.Errorf("%s: %q does not say the reply was refused", tt.name, err)
		}
		// Nothing of the offending line was handed on.
		if string(out) != tt.out {
			t.Errorf("%s: handed on %q before the refusal, want %q", tt.name, short(out), short([]byte(tt.out)))
		}
		// The error sticks.
		c := New(testLimits)
		c.Feed([]byte(tt.data), nil)
		if _, err2 := c.Feed([]byte("+OK\r\n"), nil); err2 == nil {
			t.Errorf("%s: the checker accepted more after refusing", tt.name)
		}
	}
}

func short(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// TestUnsolicitedReply: a reply beyond what was asked for is refused.
func TestUnsolicitedReply(t *testing.T) {
	c := New(testLimits)
	asked := 1
	c.Begin = func() bool { asked--; return asked >= 0 }
	out, err := c.Feed([]byte("+OK\r\n+EXTRA\r\n"), nil)
	if err == nil || !strings.Contains(err.Error(), `a reply nobody asked for: "+EXTRA\r\n"`) {
		t.Errorf("err %v", err)
	}
	if string(out) != "+OK\r\n" {
		t.Errorf("handed on %q, want only the reply that was asked for", out)
	}
}

// TestConn runs the checker on a real connection: commands written are
// counted, replies pass, a violation closes the connection and stays.
func TestConn(t *testing.T) {
	client, server := net.Pipe()
	g := Guard(client, testLimits)
	go func() {
		buf := make([]byte, 256)
		server.Read(buf) // one command
		server.Write([]byte("+PONG\r\n"))
		server.Write([]byte("+UNASKED\r\n"))
	}()
	go g.Write([]byte("*1\r\n$4\r\nPING\r\n"))
	g.SetReadDeadline(time.Now().Add(10 * time.Second))
	got := make([]byte, 7)
	if _, err := io.ReadFull(g, got); err != nil || string(got) != "+PONG\r\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	_, err := g.Read(got)
	var fe *Error
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "nobody asked for") {
		t.Fatalf("unsolicited reply: err %v", err)
	}
	if _, err := server.Write([]byte("x")); err == nil {
		t.Error("the connection is still open after the violation")
	}
	if _, err2 := g.Read(got); err2 != err {
		t.Errorf("second read: %v, want the same violation", err2)
	}
}

// TestPerReply: with PerReply the element and byte budgets start afresh
// with each reply, so a long-lived connection can read any number of
// replies, while one reply still cannot exceed them.
func TestPerReply(t *testing.T) {
	lim := testLimits
	lim.PerReply = true
	reply := "*100\r\n" + strings.Repeat("$500\r\n"+strings.Repeat("x", 500)+"\r\n", 100)
	if _, done, err := feed(t, lim, []byte(strings.Repeat(reply, 20)), 0); err != nil || done != 20 {
		t.Errorf("20 replies of 100 elements and 50 KB each: %d read, err %v", done, err)
	}
	big := "*100\r\n" + strings.Repeat("$1000\r\n"+strings.Repeat("x", 1000)+"\r\n", 100)
	if _, _, err := feed(t, lim, []byte(big), 0); err == nil || !strings.Contains(err.Error(), "more than 64 KiB received in one reply") {
		t.Errorf("one reply of 100 KB: err %v", err)
	}
	if _, _, err := feed(t, testLimits, []byte(strings.Repeat(reply, 20)), 0); err == nil || !strings.Contains(err.Error(), "on one connection") {
		t.Errorf("without PerReply the budgets are the connection's: err %v", err)
	}
}
