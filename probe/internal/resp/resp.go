// Package resp holds the probe's view of a server reply (Value), a small
// RESP2/RESP3 codec, and the field splitting of INFO-style text. The probe
// reads every reply with it (behind the framing check) and its parsers are
// pure functions over Values; the codec also reads replies recorded from
// real servers (probe/testdata) and lets probe/localfleet talk to the
// servers it starts without the probe's read-only allowlist.
package resp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind is the shape of a reply.
type Kind uint8

const (
	Nil    Kind = iota // RESP2 $-1/*-1, RESP3 _
	Str                // simple, bulk or verbatim string (verbatim without its "txt:" prefix)
	Err                // simple or bulk error, with its code ("ERR ...", "NOPERM ...")
	Int                // integer
	Bool               // RESP3 boolean: Int is 1 or 0
	Double             // RESP3 double or big number, kept as text in Str
	Array              // array, set or push
	Map                // RESP3 map or attribute: Elems alternate key, value
)

var kindNames = [...]string{"nil", "string", "error", "integer", "boolean", "double", "array", "map"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one reply.
type Value struct {
	Kind  Kind
	Str   string
	Int   int64
	Elems []Value
}

// String renders a value compactly, for evidence and test failures.
func (v Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Value) write(b *strings.Builder) {
	switch v.Kind {
	case Nil:
		b.WriteString("(nil)")
	case Str, Double:
		b.WriteString(strconv.Quote(v.Str))
	case Err:
		b.WriteString("(error) " + v.Str)
	case Int:
		b.WriteString(strconv.FormatInt(v.Int, 10))
	case Bool:
		b.WriteString(strconv.FormatBool(v.Int != 0))
	case Array, Map:
		open, sep, end := "[", " ", "]"
		if v.Kind == Map {
			open, end = "{", "}"
		}
		b.WriteString(open)
		for i, e := range v.Elems {
			if i > 0 {
				if v.Kind == Map && i%2 == 1 {
					b.WriteString(": ")
				} else {
					b.WriteString(sep)
				}
			}
			e.write(b)
		}
		b.WriteString(end)
	}
}

// Limits that keep a hostile or corrupt reply from exhausting memory.
const (
	maxDepth    = 64
	maxElems    = 1 << 20
	maxBulk     = 64 << 20
	maxLineSize = 1 << 16
)

var errProtocol = errors.New("resp: protocol error")

// Read reads one complete reply (RESP2 or RESP3). Attributes are skipped;
// push messages are returned as arrays.
func Read(r *bufio.Reader) (Value, error) { return read(r, 0) }

// Parse reads exactly one reply from data; trailing bytes are an error.
func Parse(data []byte) (Value, error) {
	r := bufio.NewReader(bytes.NewReader(data))
	v, err := Read(r)
	if err != nil {
		return Value{}, err
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return Value{}, fmt.Errorf("%w: trailing bytes after the reply", errProtocol)
	}
	return v, nil
}

func read(r *bufio.Reader, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, fmt.Errorf("%w: nested deeper than %d", errProtocol, maxDepth)
	}
	typ, err := r.ReadByte()
	if err != nil {
		return Value{}, err
	}
	line, err := readLine(r) // valid until the next read from r
	if err != nil {
		return Value{}, err
	}
	switch typ {
	case '+':
		return Value{Kind: Str, Str: string(line)}, nil
	case '-':
		return Value{Kind: Err, Str: string(line)}, nil
	case ':':
		n, ok := atoi(line)
		if !ok {
			return Value{}, fmt.Errorf("%w: bad integer %q", errProtocol, line)
		}
		return Value{Kind: Int, Int: n}, nil
	case '_':
		return Value{Kind: Nil}, nil
	case '#':
		switch string(line) {
		case "t":
			return Value{Kind: Bool, Int: 1}, nil
		case "f":
			return Value{Kind: Bool}, nil
		}
		return Value{}, fmt.Errorf("%w: bad boolean %q", errProtocol, line)
	case ',', '(':
		return Value{Kind: Double, Str: string(line)}, nil
	case '$', '=', '!':
		n, err := length(line, maxBulk)
		if err != nil {
			return Value{}, err
		}
		if n < 0 {
			return Value{Kind: Nil}, nil
		}
		s, err := readBulk(r, n)
		if err != nil {
			return Value{}, err
		}
		switch typ {
		case '!':
			return Value{Kind: Err, Str: s}, nil
		case '=':
			if len(s) < 4 || s[3] != ':' {
				return Value{}, fmt.Errorf("%w: verbatim string without a format", errProtocol)
			}
			s = s[4:]
		}
		return Value{Kind: Str, Str: s}, nil
	case '*', '~', '>', '%', '|':
		n, err := length(line, maxElems)
		if err != nil {
			return Value{}, err
		}
		if n < 0 {
			return Value{Kind: Nil}, nil
		}
		kind := Array
		if typ == '%' || typ == '|' {
			kind, n = Map, 2*n
		}
		v := Value{Kind: kind, Elems: make([]Value, 0, min(n, 1024))}
		for i := 0; i < n; i++ {
			e, err := read(r, depth+1)
			if err != nil {
				return Value{}, err
			}
			v.Elems = append(v.Elems, e)
		}
		if typ == '|' { // attributes precede the real reply
			return read(r, depth)
		}
		return v, nil
	}
	return Value{}, fmt.Errorf("%w: unknown type byte %q", errProtocol, typ)
}

// readBulk reads a bulk payload of n bytes and its CRLF into a string,
// allocating it once.
func readBulk(r *bufio.Reader, n int) (string, error) {
	var b strings.Builder
	b.Grow(n)
	for b.Len() < n {
		if r.Buffered() == 0 {
			if _, err := r.Peek(1); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return "", err
			}
		}
		chunk, _ := r.Peek(min(n-b.Len(), r.Buffered()))
		b.Write(chunk)
		r.Discard(len(chunk))
	}
	var crlf [2]byte
	if _, err := io.ReadFull(r, crlf[:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return "", err
	}
	if crlf != [2]byte{'\r', '\n'} {
		return "", fmt.Errorf("%w: bulk string not terminated by CRLF", errProtocol)
	}
	return b.String(), nil
}

func length(line []byte, limit int) (int, error) {
	n, ok := atoi(line)
	if !ok || n < -1 || n > int64(limit) {
		return 0, fmt.Errorf("%w: bad length %q", errProtocol, line)
	}
	return int(n), nil
}

// atoi reads a decimal integer (with an optional sign) without allocating.
func atoi(b []byte) (int64, bool) {
	neg := len(b) > 0 && (b[0] == '-' || b[0] == '+')
	digits := b
	if neg {
		neg, digits = b[0] == '-', b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		n, err := strconv.ParseInt(string(b), 10, 64) // long or empty: the slow path says what is wrong
		return n, err == nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// readLine reads a line and returns it without its CRLF. The slice is
// bufio's own when the line fits in its buffer: valid until the next read.
func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull { // longer than the buffer: gather it
		b := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			if len(b) > maxLineSize {
				return nil, fmt.Errorf("%w: line longer than %d bytes", errProtocol, maxLineSize)
			}
			line, err = r.ReadSlice('\n')
			b = append(b, line...)
		}
		line = b
	}
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		return nil, err
	}
	if len(line) > maxLineSize+2 {
		return nil, fmt.Errorf("%w: line longer than %d bytes", errProtocol, maxLineSize)
	}
	if len(line) < 2 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("%w: line not terminated by CRLF", errProtocol)
	}
	return line[:len(line)-2], nil
}

// Write encodes a command as a RESP array of bulk strings.
func Write(w io.Writer, args ...string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Text returns a string reply's text.
func (v Value) Text() (string, bool) { return v.Str, v.Kind == Str }

// Pairs returns the key/value elements of a RESP3 map or of the flat array
// RESP2 sends in its place, alternating key, value.
func (v Value) Pairs() ([]Value, bool) {
	switch v.Kind {
	case Map:
		return v.Elems, true
	case Array:
		if len(v.Elems)%2 == 0 {
			return v.Elems, true
		}
	}
	return nil, false
}

// Field returns the value under a string key of a map (or flat array).
func (v Value) Field(key string) (Value, bool) {
	pairs, ok := v.Pairs()
	if !ok {
		return Value{}, false
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if k, ok := pairs[i].Text(); ok && strings.EqualFold(k, key) {
			return pairs[i+1], true
		}
	}
	return Value{}, false
}

// Fields returns the fields of a map (or of the flat array RESP2 sends in
// its place) as text, as SENTINEL MASTERS/REPLICAS/SENTINELS list them:
// strings and doubles as they are, integers in decimal; other values are
// left out. ok is false when v has no pairs or a key is not a string.
func (v Value) Fields() (map[string]string, bool) {
	pairs, ok := v.Pairs()
	if !ok {
		return nil, false
	}
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		k, ok := pairs[i].Text()
		if !ok {
			return nil, false
		}
		switch val := pairs[i+1]; val.Kind {
		case Str, Double:
			m[k] = val.Str
		case Int:
			m[k] = strconv.FormatInt(val.Int, 10)
		}
	}
	return m, true
}

// InfoFields splits the text of INFO (or CLUSTER INFO) into its fields:
// "key:value" lines; section headers ("# Server") and blank lines are
// skipped.
func InfoFields(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = v
		}
	}
	return out
}
