package ruleutil

import (
	"go/parser"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// TestReportEscapes: go vet and golangci-lint print a diagnostic as it is,
// so a message quoting source text with control characters (an ESC in a raw
// string key, a bidi override) is escaped where every rule reports.
func TestReportEscapes(t *testing.T) {
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	Report(pass, "LA103", 7, "plain DEL of lock key %s", "`lock:\x1b[2J\u202e`")
	ReportFix(pass, "LA101", 9, nil, "%s\n%s", "line one", "line two")
	if len(got) != 2 {
		t.Fatalf("%d diagnostics, want 2", len(got))
	}
	if want := "plain DEL of lock key `lock:\\x1b[2J\\u202e`"; got[0].Message != want {
		t.Errorf("message %q, want %q", got[0].Message, want)
	}
	if got[0].Category != "LA103" || got[0].Pos != 7 {
		t.Errorf("category %q pos %d, want LA103 at 7", got[0].Category, got[0].Pos)
	}
	if got[1].Message != `line one\nline two` {
		t.Errorf("message %q: a line break must not start a new vet line", got[1].Message)
	}
}

func TestClip(t *testing.T) {
	short := `"lock:" + id`
	if Clip(short) != short {
		t.Errorf("Clip(%q) = %q, want it unchanged", short, Clip(short))
	}
	long := strings.Repeat("ключ", 20) // multi-byte: clipped by characters, not bytes
	c := Clip(long)
	if n := utf8.RuneCountInString(c); n != maxExpr || !strings.HasSuffix(c, "…") || !utf8.ValidString(c) {
		t.Errorf("Clip(long) = %q (%d characters), want %d ending in …", c, n, maxExpr)
	}
}

// TestFit: the cause is never cut; the advice shortens to keep the message
// within MaxMessage, and a cause too long for any advice keeps all of it.
func TestFit(t *testing.T) {
	long, short := "; the long advice that says everything", "; short advice"
	cause := "lock token is not unique per acquisition: it comes from time.Now"
	if got := Fit(cause, long, short); got != cause+long {
		t.Errorf("Fit(short cause) = %q, want the long advice", got)
	}
	cause = strings.Repeat("x", MaxMessage-utf8.RuneCountInString(short))
	if got := Fit(cause, long, short); got != cause+short {
		t.Errorf("Fit(long cause) = %q, want the short advice", got)
	}
	cause = "it comes from field id set once by NewLock2 and " + strings.Repeat("math/rand source seeded with time.Now, ", 5)
	if got := Fit(cause, long, short); !strings.HasPrefix(got, cause) || strings.Contains(got, "…") {
		t.Errorf("Fit(very long cause) = %q, want the whole cause", got)
	}
}

// TestKey: a key expression is quoted unless it is a string literal, so
// "lock key key" reads "lock key `key`".
func TestKey(t *testing.T) {
	for src, want := range map[string]string{
		`key`:          "`key`",
		`m.key`:        "`m.key`",
		`"lock:" + id`: "`\"lock:\" + id`",
		`"lock:batch"`: `"lock:batch"`,
		`("lock:x")`:   `("lock:x")`,
		`lockName(id)`: "`lockName(id)`",
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := Key(e); got != want {
			t.Errorf("Key(%s) = %s, want %s", src, got, want)
		}
	}
}
