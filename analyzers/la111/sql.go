package la111

import (
	"strings"
	"unicode"
)

// pred is a non-strict fence comparison found in SQL text.
type pred struct {
	Text string // as written, normalised spacing: "last_fence <= $1"
	Fix  string // the strict form: "last_fence < $1"
}

// token kinds of the small SQL lexer.
type tokKind int

const (
	tIdent tokKind = iota // a column or other name (quoted names unquoted, qualified names kept whole)
	tParam                // $1, ?, :name, @name
	tOp                   // comparison operators
	tOther                // literals, punctuation, keywords we do not need
)

type tok struct {
	kind tokKind
	text string
}

// nonStrict finds fence comparisons that use <= (or >= reversed) in SQL:
// `col <= x` and `x >= col` where col's name matches isFence and x is a
// bind parameter or another column (an upsert's excluded.fence). A
// comparison with a literal (fence <= 0) is not a fence check.
func nonStrict(sql string, isFence func(string) bool) []pred {
	toks := lex(sql)
	var out []pred
	for i := 1; i+1 < len(toks); i++ {
		op := toks[i]
		if op.kind != tOp || (op.text != "<=" && op.text != ">=") {
			continue
		}
		l, r := toks[i-1], toks[i+1]
		col, other := l, r
		if op.text == ">=" {
			col, other = r, l
		}
		if col.kind != tIdent || !isFence(lastPart(col.text)) {
			continue
		}
		if other.kind != tParam && other.kind != tIdent {
			continue
		}
		text := l.text + " " + op.text + " " + r.text
		fix := l.text + " " + op.text[:1] + " " + r.text
		out = append(out, pred{Text: text, Fix: fix})
	}
	return out
}

func lastPart(name string) string {
	if j := strings.LastIndexByte(name, '.'); j >= 0 {
		return name[j+1:]
	}
	return name
}

// lex splits SQL into tokens, skipping comments and string literals.
func lex(s string) []tok {
	var out []tok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return out
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return out
			}
			i += j + 4
		case c == '\'':
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			out = append(out, tok{tOther, s[i:min(j+1, len(s))]})
			i = j + 1
		case c == '"' || c == '`' || c == '[':
			end := map[byte]byte{'"': '"', '`': '`', '[': ']'}[c]
			j := strings.IndexByte(s[i+1:], end)
			if j < 0 {
				return out
			}
			name := s[i+1 : i+1+j]
			i += j + 2
			out = appendName(out, name)
		case c == '$' && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			out = append(out, tok{tParam, s[i:j]})
			i = j
		case c == '?':
			out = append(out, tok{tParam, "?"})
			i++
		case (c == ':' || c == '@') && i+1 < len(s) && isIdentStart(s[i+1]) && (i == 0 || s[i-1] != ':'):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			out = append(out, tok{tParam, s[i:j]})
			i = j
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			// A cast ($1::bigint): skip it and the type name.
			j := i + 2
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			i = j
		case c == '<' || c == '>' || c == '=' || c == '!':
			j := i + 1
			if j < len(s) && (s[j] == '=' || (c == '<' && s[j] == '>')) {
				j++
			}
			out = append(out, tok{tOp, s[i:j]})
			i = j
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			out = appendName(out, s[i:j])
			i = j
		default:
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			out = append(out, tok{tOther, s[i:j]})
			i = j
		}
	}
	return out
}

// appendName adds a name, joining it to a qualifier (t.fence, "t"."fence").
func appendName(out []tok, name string) []tok {
	if n := len(out); n >= 2 && out[n-1].kind == tOther && out[n-1].text == "." && out[n-2].kind == tIdent {
		out[n-2].text += "." + name
		return out[:n-1]
	}
	return append(out, tok{tIdent, name})
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool { return c == '_' || unicode.IsLetter(rune(c)) }
func isIdentPart(c byte) bool  { return isIdentStart(c) || isDigit(c) }
