// Package framing checks every reply a server sends before the RESP reader
// of valkey-go sees it. valkey-go trusts the lengths a server announces: a
// negative length panics, a huge one allocates it, deep nesting recurses
// without bound, a reply nobody asked for panics its reader. Checker is a
// streaming RESP2/RESP3 validator with limits; Conn puts it on a connection
// (through valkey-go's dial hook), so a reply that breaks the framing or a
// limit closes that connection with an Error and never reaches the reader.
//
// A line (a simple string, a number, a header) is handed on only once its
// end has arrived and it has been checked, so the reader never sees a length
// the checker has not accepted. Bulk payloads stream through as they arrive:
// their length was checked first, and the reader waits for all of it.
package framing

import (
	"bytes"
	"fmt"
	"strconv"
)

// Limits bound what one connection may receive.
type Limits struct {
	MaxBulk      int64 // bytes in one bulk string, bulk error or verbatim string
	MaxLine      int   // bytes in one line (a simple string or error, a number, a header), CRLF excluded
	MaxAggregate int64 // elements one array or set declares; a map's pairs count twice
	MaxDepth     int   // aggregates open inside each other
	MaxElems     int64 // elements declared over the whole connection
	MaxTotal     int64 // bytes over the whole connection; a bulk counts in full when its header arrives
	// PerReply applies MaxElems and MaxTotal to each reply instead of to
	// the connection (for long-lived connections).
	PerReply bool
}

// Error is a reply that broke the framing or a limit. The connection it came
// on is closed; what was read on it is not believed.
type Error struct {
	What string
}

func (e *Error) Error() string { return "reply refused (framing check): " + e.What }

// Checker validates one direction of a RESP stream. The zero value is not
// usable: use New.
type Checker struct {
	lim   Limits
	stack []int64 // elements still due in each open aggregate
	line  []byte  // the line being read, not yet handed on
	bulk  int64   // payload bytes still due in the current bulk
	vfmt  int     // verbatim string: bytes of its "txt:" format still to check
	crlf  int     // terminator bytes still due after a bulk payload
	total int64
	elems int64
	err   error
	drop  bool // only count: hand nothing on (Conn's outgoing side)

	// Begin is called when a top-level reply begins; false means nobody
	// asked for it (the reply is refused). Done is called when one ends.
	// Either may be nil.
	Begin func() bool
	Done  func()
}

// New returns a Checker with the limits.
func New(lim Limits) *Checker { return &Checker{lim: lim} }

// Feed checks data and appends to out the bytes that may be handed on. After
// a violation it returns the Error, now and on every later call; out then
// holds what was accepted before it, which the caller must not deliver (the
// reply it belongs to can no longer complete).
func (c *Checker) Feed(data, out []byte) ([]byte, error) {
	for len(data) > 0 && c.err == nil {
		switch {
		case c.vfmt > 0:
			// A verbatim string starts with a three-byte format and ':'.
			if c.vfmt == 1 && data[0] != ':' {
				c.fail("a verbatim string without its format")
				break
			}
			if !c.drop {
				out = append(out, data[0])
			}
			data = data[1:]
			c.vfmt--
			if c.bulk--; c.bulk == 0 {
				c.crlf = 2
			}
		case c.bulk > 0:
			n := int64(len(data))
			if n > c.bulk {
				n = c.bulk
			}
			if !c.drop {
				out = append(out, data[:n]...)
			}
			data = data[n:]
			if c.bulk -= n; c.bulk == 0 {
				c.crlf = 2
			}
		case c.crlf > 0:
			if data[0] != "\r\n"[2-c.crlf] {
				c.fail("a bulk string is not followed by CRLF")
				break
			}
			if !c.drop {
				out = append(out, data[0])
			}
			data = data[1:]
			if c.crlf--; c.crlf == 0 {
				c.complete()
			}
		default:
			i := bytes.IndexByte(data, '\n')
			chunk := data
			if i >= 0 {
				chunk = data[:i+1]
			}
			data = data[len(chunk):]
			if len(c.line)+len(chunk) > c.lim.MaxLine+2 {
				c.fail(fmt.Sprintf("a line longer than %d bytes", c.lim.MaxLine))
				break
			}
			if !c.charge(int64(len(chunk))) {
				break
			}
			c.line = append(c.line, chunk...)
			if i < 0 {
				break // the line goes on in the next chunk
			}
			if c.checkLine(c.line) && !c.drop {
				out = append(out, c.line...)
			}
			c.line = c.line[:0]
		}
	}
	return out, c.err
}

func (c *Checker) fail(what string) {
	if c.err == nil {
		c.err = &Error{What: what}
	}
}

// scope says what MaxElems and MaxTotal bound, for messages.
func (c *Checker) scope() string {
	if c.lim.PerReply {
		return "in one reply"
	}
	return "on one connection"
}

// charge counts n more bytes against MaxTotal.
func (c *Checker) charge(n int64) bool {
	c.total += n
	if c.total > c.lim.MaxTotal {
		c.fail(fmt.Sprintf("more than %s received %s", size(c.lim.MaxTotal), c.scope()))
		return false
	}
	return true
}

// checkLine checks one complete line (with its CRLF) and updates the state.
func (c *Checker) checkLine(line []byte) bool {
	if len(line) < 3 || line[len(line)-2] != '\r' {
		c.fail("a line " + quote(line) + " not of the form TYPE...CRLF")
		return false
	}
	// A CR inside a simple string or error breaks RESP, but not the
	// reader, which reads up to the LF: the text is kept (and escaped by the
	// reports); in numbers and headers the checks below refuse it.
	typ, body := line[0], line[1:len(line)-2]
	if len(c.stack) == 0 && c.Begin != nil && !c.Begin() {
		c.fail("a reply nobody asked for: " + quote(line))
		return false
	}
	switch typ {
	case '+', '-':
	case ':':
		if _, err := strconv.ParseInt(string(body), 10, 64); err != nil || !isDigits(bytes.TrimPrefix(body, []byte("-"))) {
			c.fail("a bad integer " + quote(line))
			return false
		}
	case '(':
		if !isDigits(bytes.TrimPrefix(body, []byte("-"))) {
			c.fail("a bad big number " + quote(line))
			return false
		}
	case ',':
		if len(body) == 0 || len(bytes.Trim(body, "0123456789+-.eEinfINFa")) > 0 {
			c.fail("a bad double " + quote(line))
			return false
		}
	case '#':
		if string(body) != "t" && string(body) != "f" {
			c.fail("a bad boolean " + quote(line))
			return false
		}
	case '_':
		if len(body) != 0 {
			c.fail("a bad null " + quote(line))
			return false
		}
	case '$', '!', '=':
		n, ok := c.length(typ, body, line)
		if !ok {
			return false
		}
		if n < 0 { // RESP2 null bulk string
			break
		}
		if n > c.lim.MaxBulk {
			c.fail(fmt.Sprintf("a bulk string of %d bytes is over the %s limit", n, size(c.lim.MaxBulk)))
			return false
		}
		if typ == '=' && n < 4 {
			c.fail("a verbatim string without its format: " + quote(line))
			return false
		}
		if !c.charge(n + 2) {
			return false
		}
		if c.bulk = n; n == 0 {
			c.crlf = 2
		}
		if typ == '=' {
			c.vfmt = 4
		}
		return true // complete once its payload has come
	case '*', '~', '%':
		n, ok := c.length(typ, body, line)
		if !ok {
			return false
		}
		if n < 0 { // RESP2 null array
			break
		}
		if typ == '%' {
			n *= 2
		}
		if n > c.lim.MaxAggregate {
			c.fail(fmt.Sprintf("an aggregate of %d elements is over the %d-element limit", n, c.lim.MaxAggregate))
			return false
		}
		if c.elems += n; c.elems > c.lim.MaxElems {
			c.fail(fmt.Sprintf("more than %d elements declared %s", c.lim.MaxElems, c.scope()))
			return false
		}
		if n == 0 {
			break
		}
		if len(c.stack) >= c.lim.MaxDepth {
			c.fail(fmt.Sprintf("aggregates nested deeper than %d levels", c.lim.MaxDepth))
			return false
		}
		c.stack = append(c.stack, n)
		return true
	case '>':
		c.fail("a push message (the probe subscribes to nothing)")
		return false
	case '|':
		c.fail("an attribute (no server sends one to the probe)")
		return false
	default:
		c.fail("an unknown reply type in " + quote(line))
		return false
	}
	c.complete()
	return true
}

// length reads an announced length: digits, or -1 where RESP2 allows a null
// ($ and *). Streamed (?) and other negative lengths are refused.
func (c *Checker) length(typ byte, body, line []byte) (int64, bool) {
	if string(body) == "-1" && (typ == '$' || typ == '*') {
		return -1, true
	}
	if len(body) > 0 && body[0] == '-' {
		c.fail("a negative length in " + quote(line))
		return 0, false
	}
	if string(body) == "?" {
		c.fail("a streamed RESP3 reply (no server sends one to the probe): " + quote(line))
		return 0, false
	}
	if !isDigits(body) || len(body) > 18 {
		c.fail("a bad length in " + quote(line))
		return 0, false
	}
	n, _ := strconv.ParseInt(string(body), 10, 64)
	return n, true
}

// complete ends one element, and every aggregate it completes.
func (c *Checker) complete() {
	for {
		if len(c.stack) == 0 {
			if c.lim.PerReply {
				c.total, c.elems = 0, 0
			}
			if c.Done != nil {
				c.Done()
			}
			return
		}
		top := len(c.stack) - 1
		if c.stack[top]--; c.stack[top] > 0 {
			return
		}
		c.stack = c.stack[:top]
	}
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, x := range b {
		if x < '0' || x > '9' {
			return false
		}
	}
	return true
}

// quote shows (the start of) a line safely: escaped, at most 40 bytes.
func quote(line []byte) string {
	if len(line) > 40 {
		return strconv.Quote(string(line[:40])) + "..."
	}
	return strconv.Quote(string(line))
}

// size writes a byte count as "8 MiB" or "64 KiB" when it is a whole
// number of those.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
