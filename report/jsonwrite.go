package report

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
)

// The JSON and SARIF reports of a large run are as large as the run. An
// encoding/json Encoder builds a whole document in memory before it writes
// it, so a report would be held twice (and a SARIF log of a 50 MB run three
// times). writeJSON writes the same bytes with the large slices of the
// document (findings, nodes, results) encoded one element at a time.

// splice is a large slice of a document that writeJSON writes an element
// at a time. The document holds, in the slice's place, a slice of one
// sentinel element; writeJSON finds that element's encoding in the
// document and writes the real elements in its place.
type splice struct {
	depth    int // nesting depth of the elements (a top-level field's: 2)
	sentinel any // the one element the document holds in the slice's place
	n        int
	elem     func(i int) any
}

// spliceOf is a splice of the slice s, whose elements are at depth, with
// sentinel in its place in the document.
func spliceOf[T any](depth int, s []T, sentinel T) splice {
	return splice{depth: depth, sentinel: sentinel, n: len(s), elem: func(i int) any { return s[i] }}
}

// spliceMark makes the strings of sentinel elements unique: a document
// never holds a NUL (JSON writes it \u0000) followed by this, and a
// sentinel's encoding spans several lines, which no string does.
const spliceMark = "\x00lockaudit-splice-"

// writeJSON writes a document as json.Encoder with SetIndent("", "  ")
// and SetEscapeHTML(false) writes it, through jsonEscaper, byte for byte.
// build(false) is the document; build(true) the same with each non-empty
// splice's slice replaced by its sentinel, which writeJSON replaces with
// the slice's elements. When a sentinel cannot be found exactly once, the
// plain document is written whole.
func writeJSON(w io.Writer, build func(sentinels bool) any, splices ...splice) error {
	// A caller that collects the report in a buffer gets it in one
	// allocation of its size, filled at the end, rather than a buffer
	// doubled as it fills (which holds the old and the new one at once,
	// and up to twice the report).
	if _, ok := w.(*bytes.Buffer); ok {
		var c chunks
		if err := writeJSON(&c, build, splices...); err != nil {
			return err
		}
		return c.flush(w)
	}
	w = jsonEscaper{w}
	enc := func(buf *bytes.Buffer, v any, prefix string) error {
		e := json.NewEncoder(buf)
		e.SetIndent(prefix, "  ")
		e.SetEscapeHTML(false)
		return e.Encode(v)
	}
	var doc bytes.Buffer
	if err := enc(&doc, build(true), ""); err != nil {
		return err
	}
	type at struct {
		start, end int
		s          splice
	}
	var cuts []at
	for _, s := range splices {
		var sent bytes.Buffer
		if err := enc(&sent, s.sentinel, strings.Repeat("  ", s.depth)); err != nil {
			return err
		}
		if s.n == 0 {
			continue // the document holds the empty slice itself
		}
		e := bytes.TrimSuffix(sent.Bytes(), []byte("\n"))
		i := bytes.Index(doc.Bytes(), e)
		if i < 0 || bytes.Count(doc.Bytes(), e) != 1 {
			// Not worth it, or not safe: the plain document.
			return writeWhole(w, build(false), enc)
		}
		cuts = append(cuts, at{i, i + len(e), s})
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i].start < cuts[j].start })
	var buf bytes.Buffer
	last := 0
	for _, c := range cuts {
		if _, err := w.Write(doc.Bytes()[last:c.start]); err != nil {
			return err
		}
		prefix := strings.Repeat("  ", c.s.depth)
		for i := range c.s.n {
			buf.Reset()
			if i > 0 {
				buf.WriteString(",\n" + prefix)
			}
			if err := enc(&buf, c.s.elem(i), prefix); err != nil {
				return err
			}
			buf.Truncate(buf.Len() - 1) // the Encoder's newline
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
		}
		last = c.end
	}
	_, err := w.Write(doc.Bytes()[last:])
	return err
}

// chunks collects bytes in blocks of 1 MiB: it never copies what it holds
// to grow.
type chunks struct {
	blocks [][]byte
	n      int
}

func (c *chunks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if len(c.blocks) == 0 || len(c.blocks[len(c.blocks)-1]) == cap(c.blocks[len(c.blocks)-1]) {
			c.blocks = append(c.blocks, make([]byte, 0, 1<<20))
		}
		b := &c.blocks[len(c.blocks)-1]
		k := copy((*b)[len(*b):cap(*b)], p)
		*b, p = (*b)[:len(*b)+k], p[k:]
	}
	c.n += n
	return n, nil
}

// flush writes what c holds to w, letting go of each block once written;
// a bytes.Buffer is grown once, to what it gets.
func (c *chunks) flush(w io.Writer) error {
	if b, ok := w.(*bytes.Buffer); ok {
		b.Grow(c.n)
	}
	for i := range c.blocks {
		if _, err := w.Write(c.blocks[i]); err != nil {
			return err
		}
		c.blocks[i] = nil
	}
	return nil
}

func writeWhole(w io.Writer, doc any, enc func(*bytes.Buffer, any, string) error) error {
	var b bytes.Buffer
	if err := enc(&b, doc, ""); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// sentinelFor is what a document holds in the place of s: its sentinel,
// or s itself when it is empty (nothing to splice).
func sentinelFor[T any](s []T, sentinel T) []T {
	if len(s) == 0 {
		return s
	}
	return []T{sentinel}
}

// sentinelString is a sentinel element's string for the splice numbered n.
func sentinelString(n int) string { return spliceMark + strconv.Itoa(n) }
