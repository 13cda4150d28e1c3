// Package safetext makes text that came from outside lockaudit safe to
// print on a terminal. It imports nothing of ours, so the analyzers and the
// report share it without the analyzers depending on the renderers.
package safetext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Escape makes text that came from outside lockaudit — a server's reply or
// error, a CONFIG value, a file name, a source literal — safe to print on a
// terminal. Every control character (C0 such as ESC, CR, LF, TAB, BEL;
// DEL; C1), every bidirectional-text control (which can reorder what a
// reader sees) and every byte that is not UTF-8 is written as a Go escape
// (\x1b, \r, \n, \t, \u202e), so a value can neither repaint the screen,
// set the window title, rewrite a line ("SAFE") nor forge a new one.
// Printable text, backslashes included, is left as it is, so escaping twice
// changes nothing.
//
// report applies it where a Run meets a format a person reads; the analyzers
// apply it to every diagnostic (analyzers/internal/ruleutil).
func Escape(s string) string {
	if !Needs(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Unsafe(r):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\r', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Lines escapes each line of a multi-line message (a compiler error
// with its context lines) and keeps the line breaks: the lines are the
// message's own structure, not a value's.
func Lines(s string) string {
	if !Needs(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

// Needs reports whether Escape would change s (or s holds U+FFFD, which
// may stand for bytes that were not UTF-8).
func Needs(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || Unsafe(r) {
			return true
		}
	}
	return false
}

// Unsafe reports the runes Escape writes as escapes: C0 controls, DEL,
// C1 controls, and the Unicode bidi controls (LRM/RLM/ALM, the embeddings
// and overrides, the isolates).
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Prefix is s's first n bytes at most, cut before a character so that no
// rune is split; whole says it is all of s.
func Prefix(s string, n int) (prefix string, whole bool) {
	if len(s) <= n {
		return s, true
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], false
}
