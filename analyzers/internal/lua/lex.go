package lua

import "strings"

// The lexer reads Lua tokens in one pass over the text: every byte is looked
// at a bounded number of times, so the classifier stays linear however long
// the script is. It never fails: a byte that starts no Lua token becomes a
// one-byte operator token that the parser skips.

type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tString
	tNumber
	tOp
)

type token struct {
	kind tokKind
	text string // a name, number or operator; a string's body without its quotes
	pos  int    // byte offset in the script
	gap  bool   // whitespace or a comment came before it
}

// is reports whether t is the operator or keyword s.
func (t token) is(s string) bool { return (t.kind == tOp || t.kind == tName) && t.text == s }

type lexer struct {
	src string
	i   int
}

// ops are Lua's multi-byte operators, longest first.
var ops = []string{"...", "==", "~=", "<=", ">=", "..", "//", "::", "<<", ">>"}

func (l *lexer) next() token {
	gap := false
	for l.i < len(l.src) {
		switch c := l.src[l.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.i++
			gap = true
			continue
		case strings.HasPrefix(l.src[l.i:], "--"):
			l.i += 2
			gap = true
			if level, ok := l.longOpen(); ok {
				l.longBody(level)
			} else if n := strings.IndexByte(l.src[l.i:], '\n'); n >= 0 {
				l.i += n
			} else {
				l.i = len(l.src)
			}
			continue
		}
		break
	}
	start := l.i
	t := token{pos: start, gap: gap}
	if l.i >= len(l.src) {
		return t
	}
	c := l.src[l.i]
	switch {
	case isLetter(c):
		for l.i < len(l.src) && (isLetter(l.src[l.i]) || isDigit(l.src[l.i])) {
			l.i++
		}
		t.kind, t.text = tName, l.src[start:l.i]
	case isDigit(c) || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]):
		l.i++
		for l.i < len(l.src) {
			d := l.src[l.i]
			exp := (d == '+' || d == '-') && strings.ContainsRune("eEpP", rune(l.src[l.i-1]))
			if !isLetter(d) && !isDigit(d) && d != '.' && !exp {
				break
			}
			l.i++
		}
		t.kind, t.text = tNumber, l.src[start:l.i]
	case c == '"' || c == '\'':
		l.i++
		body := l.i
		for l.i < len(l.src) && l.src[l.i] != c && l.src[l.i] != '\n' {
			if l.src[l.i] == '\\' {
				l.i++
			}
			l.i++
		}
		if l.i > len(l.src) { // a backslash as the last byte
			l.i = len(l.src)
		}
		t.kind, t.text = tString, l.src[body:l.i]
		if l.i < len(l.src) && l.src[l.i] == c {
			l.i++
		}
	case c == '[':
		if level, ok := l.longOpen(); ok {
			t.kind, t.text = tString, l.longBody(level)
			break
		}
		l.i++
		t.kind, t.text = tOp, "["
	default:
		t.kind = tOp
		for _, op := range ops {
			if strings.HasPrefix(l.src[l.i:], op) {
				t.text = op
				break
			}
		}
		if t.text == "" {
			t.text = l.src[l.i : l.i+1]
		}
		l.i += len(t.text)
	}
	return t
}

// longOpen reads the opening of a long bracket ([[, [==[) at l.i and
// returns its level; when there is none it leaves l.i alone.
func (l *lexer) longOpen() (int, bool) {
	if l.i >= len(l.src) || l.src[l.i] != '[' {
		return 0, false
	}
	j := l.i + 1
	for j < len(l.src) && l.src[j] == '=' {
		j++
	}
	if j >= len(l.src) || l.src[j] != '[' {
		return 0, false
	}
	level := j - l.i - 1
	l.i = j + 1
	return level, true
}

// longBody reads up to the closing bracket of the given level (or the end of
// the text) and returns what was between.
func (l *lexer) longBody(level int) string {
	closing := "]" + strings.Repeat("=", level) + "]"
	start := l.i
	n := strings.Index(l.src[start:], closing)
	if n < 0 {
		l.i = len(l.src)
		return l.src[start:]
	}
	l.i = start + n + len(closing)
	return l.src[start : start+n]
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true,
	"false": true, "for": true, "function": true, "goto": true, "if": true, "in": true,
	"local": true, "nil": true, "not": true, "or": true, "repeat": true, "return": true,
	"then": true, "true": true, "until": true, "while": true,
}

// RepliesNoOutcome reports a script whose every return is a status or
// error reply or a string literal (return redis.status_reply("OK")), or
// that returns nothing: no reply of it says whether a lock step took
// effect, so dropping the reply loses nothing a caller could read.
func RepliesNoOutcome(src string) bool {
	l := lexer{src: src}
	for t := l.next(); t.kind != tEOF; t = l.next() {
		if !t.is("return") {
			continue
		}
		v := l.next()
		switch {
		case v.kind == tString:
		case v.is("redis"):
			if dot, fn := l.next(), l.next(); !dot.is(".") || !fn.is("status_reply") && !fn.is("error_reply") {
				return false
			}
		case v.is("end"), v.kind == tEOF:
			// A bare return: nil.
		default:
			return false
		}
	}
	return true
}
