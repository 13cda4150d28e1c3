package workflowcmd

import (
	"fmt"
	"testing"
)

// TestParse: the runner's reading, on the examples of GitHub's workflow
// command documentation and on escapes.
func TestParse(t *testing.T) {
	for line, want := range map[string]string{
		"::error file=app.js,line=1::Missing semicolon":                   "error map[file:app.js line:1] Missing semicolon",
		"  ::warning file=a%2Cb%3Ac.go,line=2,title=T%0AU::x%0Ay%25 :: z": "warning map[file:a,b:c.go line:2 title:T\nU] x\ny% :: z",
		"::notice::plain":         "notice map[] plain",
		"::stop-commands::tok":    "stop-commands map[] tok",
		"::error file=a::b":       "error map[file:a] b",
		"::error file=%253A.go::": "error map[file:%3A.go] ",
	} {
		c, ok := Parse(line)
		if got := fmt.Sprint(c.Name, " ", c.Props, " ", c.Data); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", line, got, ok, want)
		}
	}
	for _, line := range []string{"error file=a::b", "::error no end", "", "x ::error::y"} {
		if _, ok := Parse(line); ok {
			t.Errorf("Parse(%q) read a command", line)
		}
	}
}
