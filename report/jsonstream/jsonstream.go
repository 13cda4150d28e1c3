// Package jsonstream writes large JSON documents (the JSON run, a
// comparison, a SARIF log) with their large slices encoded an element at a
// time, byte for byte as json.Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) would, and with the characters a viewer could
// reorder or repaint written as \u escapes (Escaper).
package jsonstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/internal/safetext"
)

// The JSON and SARIF reports of a large run are as large as the run. An
// encoding/json Encoder builds a whole document in memory before it writes
// it, so a report would be held twice (and a SARIF log of a 50 MB run three
// times). Write writes the same bytes with the large slices of the
// document (findings, nodes, results) encoded one element at a time.

// A Splice is a large slice of a document that Write writes an element
// at a time. The document holds, in the slice's place, a slice of one
// sentinel element; Write finds that element's encoding in the
// document and writes the real elements in its place.
type Splice struct {
	Depth    int // nesting depth of the elements (a top-level field's: 2)
	Sentinel any // the one element the document holds in the slice's place
	N        int // how many elements
	Elem     func(i int) any
}

// SpliceOf is a Splice of the slice s, whose elements are at depth, with
// sentinel in its place in the document.
func SpliceOf[T any](depth int, s []T, sentinel T) Splice {
	return Splice{Depth: depth, Sentinel: sentinel, N: len(s), Elem: func(i int) any { return s[i] }}
}

// spliceMark makes the strings of sentinel elements unique: a document
// never holds a NUL (JSON writes it \u0000) followed by this, and a
// sentinel's encoding spans several lines, which no string does.
const spliceMark = "\x00lockaudit-Splice-"

// Write writes a document as json.Encoder with SetIndent("", "  ")
// and SetEscapeHTML(false) writes it, through Escaper, byte for byte.
// build(false) is the document; build(true) the same with each non-empty
// Splice's slice replaced by its sentinel, which Write replaces with
// the slice's elements. When a sentinel cannot be found exactly once, the
// plain document is written whole.
func Write(w io.Writer, build func(sentinels bool) any, splices ...Splice) error {
	// A caller that collects the report in a buffer gets it in one
	// allocation of its size, filled at the end, rather than a buffer
	// doubled as it fills (which holds the old and the new one at once,
	// and up to twice the report).
	if _, ok := w.(*bytes.Buffer); ok {
		var c Chunks
		if err := Write(&c, build, splices...); err != nil {
			return err
		}
		return c.Flush(w)
	}
	w = Escaper{w}
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
		s          Splice
	}
	var cuts []at
	for _, s := range splices {
		var sent bytes.Buffer
		if err := enc(&sent, s.Sentinel, strings.Repeat("  ", s.Depth)); err != nil {
			return err
		}
		if s.N == 0 {
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
		prefix := strings.Repeat("  ", c.s.Depth)
		for i := range c.s.N {
			buf.Reset()
			if i > 0 {
				buf.WriteString(",\n" + prefix)
			}
			if err := enc(&buf, c.s.Elem(i), prefix); err != nil {
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

// Chunks collects bytes in blocks of 1 MiB: it never copies what it holds
// to grow.
type Chunks struct {
	blocks [][]byte
	n      int
}

func (c *Chunks) Write(p []byte) (int, error) {
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

// Flush writes what c holds to w, letting go of each block once written;
// a bytes.Buffer is grown once, to what it gets.
func (c *Chunks) Flush(w io.Writer) error {
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

// SentinelFor is what a document holds in the place of s: its sentinel,
// or s itself when it is empty (nothing to Splice).
func SentinelFor[T any](s []T, sentinel T) []T {
	if len(s) == 0 {
		return s
	}
	return []T{sentinel}
}

// SentinelString is a sentinel element's string for the Splice numbered n.
func SentinelString(n int) string { return spliceMark + strconv.Itoa(n) }

// Escaper writes JSON that encoding/json made with the characters
// Escape escapes and the encoder leaves raw — DEL, the C1 controls and
// the bidi controls (U+202E and the others) — as \u escapes, so no viewer
// of a JSON or SARIF report reorders or repaints its text. (The encoder
// already writes C0 controls as escapes.) Outside strings JSON holds only
// ASCII punctuation and whitespace, so the rewrite never touches
// structure. Each Write must hold whole UTF-8 sequences, as the encoder's
// single write of a document does.
type Escaper struct{ w io.Writer }

func (j Escaper) Write(p []byte) (int, error) {
	start := 0
	var buf []byte
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && r >= 0x7f && safetext.Unsafe(r) {
			buf = append(buf, p[start:i]...)
			buf = fmt.Appendf(buf, `\u%04x`, r)
			start = i + size
		}
		i += size
	}
	if buf == nil {
		return j.w.Write(p)
	}
	if _, err := j.w.Write(append(buf, p[start:]...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
