package directive

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report/finding"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok     bool
		file   bool
		rules  string
		reason string
		err    string
	}{
		{"//lockaudit:ignore LA103 -- admin reset", true, false, "LA103", "admin reset", ""},
		{"//lockaudit:ignore la103,LA114 -- two rules", true, false, "LA103,LA114", "two rules", ""},
		{"//lockaudit:file-ignore LA101 -- legacy scripts", true, true, "LA101", "legacy scripts", ""},
		{"//lockaudit:ignore plain-del-release,LA114 -- by name", true, false, "LA103,LA114", "by name", ""},
		{"//lockaudit:ignore bad-directive -- LA100 by name", true, false, "BAD-DIRECTIVE", "LA100 by name", `unknown rule "BAD-DIRECTIVE"`},
		{"//lockaudit:ignore LA103", true, false, "LA103", "", "has no reason"},
		{"//lockaudit:ignore LA103 --   ", true, false, "LA103", "", "has no reason"},
		{"//lockaudit:ignore -- why", true, false, "", "why", "names no rule"},
		{"//lockaudit:ignore LA999 -- why", true, false, "LA999", "why", `unknown rule "LA999"`},
		{"//lockaudit:ignore LA201 -- node rules are not code", true, false, "LA201", "node rules are not code", `unknown rule "LA201"`},
		{"//lockaudit:ignroe LA103 -- typo", true, false, "", "", `unknown directive "lockaudit:ignroe"`},
		{"// lockaudit:ignore LA103 -- spaced is prose", false, false, "", "", ""},
		{"//lockaudit:ignored", false, false, "", "", ""},
		{"// regular comment", false, false, "", "", ""},
	} {
		d, ok := Parse(tc.text)
		if ok != tc.ok {
			t.Errorf("Parse(%q) ok = %v", tc.text, ok)
			continue
		}
		if !ok {
			continue
		}
		if d.File != tc.file || strings.Join(d.Rules, ",") != tc.rules || d.Reason != tc.reason {
			t.Errorf("Parse(%q) = %+v", tc.text, d)
		}
		if (tc.err == "") != (d.Err == "") || !strings.Contains(d.Err, tc.err) {
			t.Errorf("Parse(%q).Err = %q, want %q", tc.text, d.Err, tc.err)
		}
	}
}

const src = `package p

func f() {
	del("lock:a") //lockaudit:ignore LA103 -- admin reset, the holder is dead
	//lockaudit:ignore LA103 -- next line
	del("lock:b")
	del("lock:c")
	//lockaudit:ignore LA114 -- stale: nothing here
	del("lock:d")
	del("lock:e") //lockaudit:ignore LA103
}
`

func TestApply(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "a.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(p token.Pos) finding.Position {
		pp := fset.Position(p)
		return finding.Position{File: "pkg/a.go", Line: pp.Line, Col: pp.Column}
	}
	dirs := Collect(f, rel)
	if len(dirs) != 4 {
		t.Fatalf("collected %d directives, want 4", len(dirs))
	}
	mk := func(line int) finding.Finding {
		return finding.Finding{Rule: "LA103", Message: "plain DEL", Pos: &finding.Position{File: "pkg/a.go", Line: line, Col: 2}}
	}
	findings := []finding.Finding{mk(4), mk(6), mk(7), mk(9), mk(10)}
	extra := Apply(findings, dirs, nil)

	wantSuppressed := map[int]string{4: "admin reset, the holder is dead", 6: "next line"}
	for _, f := range findings {
		j, want := wantSuppressed[f.Pos.Line]
		switch {
		case want && (f.Suppressed == nil || f.Suppressed.Justification != j || f.Suppressed.Kind != "inSource"):
			t.Errorf("line %d: suppression = %+v, want %q", f.Pos.Line, f.Suppressed, j)
		case !want && f.Suppressed != nil:
			t.Errorf("line %d: suppressed by %+v, want active", f.Pos.Line, f.Suppressed)
		}
	}
	var got []string
	for _, e := range extra {
		got = append(got, e.Pos.String()+" "+string(e.Rule)+" "+e.Message)
	}
	want := []string{
		"pkg/a.go:8:2 LA100 lockaudit directive suppresses nothing: no LA114 finding here; remove it",
		"pkg/a.go:10:16 LA100 lockaudit directive has no reason (write LA103 -- why this is fine)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("directive findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Running only LA103 must not call the LA114 directive stale.
	for i := range dirs {
		dirs[i].used = false
	}
	findings = []finding.Finding{mk(4), mk(6)}
	extra = Apply(findings, dirs, map[string]bool{"LA103": true})
	for _, e := range extra {
		if strings.Contains(e.Message, "LA114") {
			t.Errorf("LA114 directive reported stale although LA114 did not run: %s", e.Message)
		}
	}
}

func TestFileIgnore(t *testing.T) {
	d, _ := Parse("//lockaudit:file-ignore LA101 -- generated")
	d.Pos = finding.Position{File: "x.go", Line: 1, Col: 1}
	findings := []finding.Finding{
		{Rule: "LA101", Pos: &finding.Position{File: "x.go", Line: 90}},
		{Rule: "LA101", Pos: &finding.Position{File: "y.go", Line: 90}},
		{Rule: "LA103", Pos: &finding.Position{File: "x.go", Line: 90}},
	}
	if extra := Apply(findings, []*Directive{&d}, nil); len(extra) != 0 {
		t.Errorf("unexpected directive findings %+v", extra)
	}
	if findings[0].Suppressed == nil || findings[1].Suppressed != nil || findings[2].Suppressed != nil {
		t.Errorf("file-ignore applied wrongly: %+v %+v %+v", findings[0].Suppressed, findings[1].Suppressed, findings[2].Suppressed)
	}
}
