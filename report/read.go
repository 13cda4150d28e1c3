package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// The limits of a saved run that render, diff, -since and -drill read
// (docs/reliability.md#saved-runs). A run lockaudit wrote stays within
// them; a larger or hostile one costs bounded memory: its long texts are
// cut as they are read, and past the kept size it is refused.
const (
	// MaxRunInput bounds the bytes read, so an endless input ends.
	MaxRunInput = 512 << 20
	// MaxRunText bounds each text (a JSON string) as read: the largest
	// text lockaudit writes is the consultant's notes, at most 1 MiB of
	// file (in JSON a little more: a newline is written \n). A longer
	// one is cut here, and says how much was cut.
	MaxRunText = 1 << 20
	// MaxRunKept bounds the JSON kept once long texts are cut: what the
	// model, and every report of it, is made from.
	MaxRunKept = 24 << 20
	// MaxRunObjects bounds the JSON objects of a run (a finding is one or
	// two, a node a few): each costs memory in the model and in every
	// report beyond its bytes. A probe of 10,000 nodes (the probe's
	// limit) writes about 100,000.
	MaxRunObjects = 250_000
)

// ErrRunTooLarge is a saved run past MaxRunInput or MaxRunKept.
var ErrRunTooLarge = errors.New("too large")

// ReadRun reads a saved JSON run from r within the saved-run limits and
// decodes it strictly (DecodeRun). A text longer than MaxRunText is cut to
// its first MaxRunText bytes followed by "…[N more bytes cut]"; an input
// larger than MaxRunInput, or than MaxRunKept once cut, is refused with an
// error that wraps ErrRunTooLarge. Memory stays bounded whatever the input:
// the input is never held, only what is kept.
func ReadRun(r io.Reader) (*Run, error) {
	var kept bytes.Buffer
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > MaxRunInput {
				return nil, inputTooLarge()
			}
			kept.Grow(int(min(fi.Size(), MaxRunKept)) + 1)
		}
	}
	c := &textCutter{r: bufio.NewReaderSize(io.LimitReader(r, MaxRunInput+1), 64<<10), max: MaxRunText}
	if _, err := kept.ReadFrom(io.LimitReader(c, MaxRunKept+1)); err != nil {
		return nil, err
	}
	switch {
	case c.read > MaxRunInput:
		return nil, inputTooLarge()
	case c.objects > MaxRunObjects:
		return nil, fmt.Errorf("more than %d JSON objects (findings, nodes, …): not a lockaudit JSON run, or one too large to render (docs/reliability.md#saved-runs): %w", MaxRunObjects, ErrRunTooLarge)
	case kept.Len() > MaxRunKept:
		return nil, fmt.Errorf("larger than %d MiB even with every text cut to %d KiB: not a lockaudit JSON run, or one too large to render (docs/reliability.md#saved-runs): %w", MaxRunKept>>20, MaxRunText>>10, ErrRunTooLarge)
	}
	return DecodeRun(kept.Bytes())
}

func inputTooLarge() error {
	return fmt.Errorf("larger than %d MiB: not a lockaudit JSON run (docs/reliability.md#saved-runs): %w", MaxRunInput>>20, ErrRunTooLarge)
}

// textCutter passes a JSON text through, cutting every string whose JSON
// form is longer than max bytes: it keeps the first max bytes (never in
// the middle of an escape or a UTF-8 character), drops the rest up to the
// closing quote and writes how much it dropped. Raw newlines never occur in
// a JSON string, so the lines of what it passes on are the input's lines.
// It only needs to find the strings: whether the text is JSON at all is
// the decoder's to say.
type textCutter struct {
	r       *bufio.Reader
	max     int
	read    int64 // bytes read from r
	objects int   // objects begun, up to MaxRunObjects+1

	inString, escape bool
	hex              int  // hex digits of a \u escape still to come
	n                int  // bytes of the current string passed on
	cutting          bool // dropping the rest of the current string
	dropped          int
	pending          []byte // the cut's note and closing quote, to pass on
}

func (c *textCutter) Read(p []byte) (int, error) {
	out := 0
	for out < len(p) {
		if len(c.pending) > 0 {
			k := copy(p[out:], c.pending)
			c.pending = c.pending[k:]
			out += k
			continue
		}
		b, err := c.r.ReadByte()
		if err != nil {
			if out > 0 {
				return out, nil
			}
			return 0, err
		}
		c.read++
		if c.cutting {
			c.cut(b)
			continue
		}
		if c.inString {
			if c.n >= c.max && !c.escape && c.hex == 0 && b != '"' && !isContinuation(b) {
				c.cutting, c.dropped = true, 0
				c.cut(b)
				continue
			}
			c.n++
			switch {
			case c.hex > 0:
				c.hex--
			case c.escape:
				c.escape = false
				if b == 'u' {
					c.hex = 4
				}
			case b == '\\':
				c.escape = true
			case b == '"':
				c.inString = false
			}
		} else if b == '"' {
			c.inString, c.n = true, 0
		} else if b == '{' {
			if c.objects++; c.objects > MaxRunObjects {
				return out, io.EOF // refused: ReadRun says why
			}
		}
		p[out] = b
		out++
	}
	return out, nil
}

// cut drops b, a byte of the rest of a string being cut, and at the
// string's closing quote queues the note and the quote.
func (c *textCutter) cut(b byte) {
	switch {
	case c.escape:
		c.escape = false
	case b == '\\':
		c.escape = true
	case b == '"':
		c.cutting, c.inString = false, false
		c.pending = fmt.Appendf(nil, `…[%d more bytes cut]"`, c.dropped)
		return
	}
	c.dropped++
}

// isContinuation reports whether b continues a UTF-8 character.
func isContinuation(b byte) bool { return b&0xc0 == 0x80 }
