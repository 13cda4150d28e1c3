package jsonstrict

import (
	"strings"
	"testing"
)

type doc struct {
	Version  int `json:"version"`
	Findings []struct {
		Rule string `json:"rule"`
		Line int    `json:"line"`
	} `json:"findings"`
}

// TestDecodeErrors: every way a hand-edited file goes wrong names the line
// and column; data after the value is an error, not silently ignored.
func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"trailing object", "{\"version\": 1}\n{\"version\": 2}\n", "line 2, column 1: more data after the end of the value"},
		{"trailing brace", "{\"version\": 1}}", "line 1, column 15: more data after the end of the value"},
		{"trailing text", "{\"version\": 1}\n\n  garbage", "line 3, column 3: more data after"},
		{"unknown field", "{\"version\": 1,\n  \"findings\": [{\"rule\": \"LA103\", \"colour\": 1}]}", `line 2, column 34: unknown field "colour"`},
		{"wrong type", "{\"version\": 1,\n  \"findings\": [{\"line\": \"ten\"}]}", "line 2, column 30: findings[0].line: want int, got JSON string"},
		{"syntax", "{\"version\": 1,\n  \"findings\": [,]}", "line 2, column 16: malformed JSON: invalid character ','"},
		{"truncated", "{\"version\": 1,\n  \"findings\": [", "line 2, column 16: malformed JSON: the input ends in the middle"},
		{"not an object", "[1]", "line 1, column 2: the value: want jsonstrict.doc, got JSON array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(tc.in), &d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode: %v\nwant %q", err, tc.want)
			}
		})
	}
	var d doc
	if err := Decode([]byte("  {\"version\": 1, \"findings\": [{\"rule\": \"LA103\", \"line\": 3}]}\n\n"), &d); err != nil || d.Findings[0].Line != 3 {
		t.Errorf("a good file: %v %+v", err, d)
	}
}

// TestPathAt: an offset names its value as the JSON contract spells fields.
func TestPathAt(t *testing.T) {
	data := []byte(`{"a": 1, "b": [true, {"c": "x", "d": [null, "y"]}], "e": {}}`)
	for _, tc := range []struct{ at, want string }{
		{`1`, "a"}, {`true`, "b[0]"}, {`"x"`, "b[1].c"}, {`null`, "b[1].d[0]"}, {`"y"`, "b[1].d[1]"}, {`{}`, "e"}, {`{"c"`, "b[1]"},
	} {
		off := strings.Index(string(data), tc.at)
		if got := PathAt(data, off); got != tc.want {
			t.Errorf("PathAt(%q) = %q, want %q", tc.at, got, tc.want)
		}
	}
	if got := PathAt([]byte(`{"a": [1,`), 100); got != "" {
		t.Errorf("past the end of malformed data: %q", got)
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncde\n\nf")
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 2, 3}, {7, 3, 1}, {8, 4, 1}, {9, 4, 2}, {99, 4, 2}, {-1, 1, 1}} {
		if l, c := LineCol(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}
