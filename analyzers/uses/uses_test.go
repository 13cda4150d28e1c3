package uses_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/uses"
	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// markRE reads the expectations the fixtures carry: a line ending in
// `// uses: CMD "WHAT"` relies on CMD there, named WHAT.
var markRE = regexp.MustCompile(`// uses: (\w+) "([^"]*)"`)

// TestUses compares the analyzer's result with the marks in the fixtures,
// both ways: every marked line is found, and nothing unmarked is.
func TestUses(t *testing.T) {
	pkgs := []string{"uses/native", "uses/scripts", "uses/libs", "uses/none"}
	results := analyzertest.Run(t, uses.Analyzer, nil, pkgs...)
	if len(results) != len(pkgs) {
		t.Fatalf("%d results for %d packages", len(results), len(pkgs))
	}
	var got []string
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Pass.Pkg.Path(), r.Err)
		}
		res := r.Result.(*uses.Result)
		for _, s := range res.Sites {
			p := r.Pass.Fset.Position(s.Pos)
			got = append(got, fmt.Sprintf("%s:%d: %s %q", filepath.Base(p.Filename), p.Line, s.Command, s.What))
		}
	}
	var want []string
	for _, pkg := range pkgs {
		files, _ := filepath.Glob(filepath.Join("testdata", "src", pkg, "*.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if m := markRE.FindStringSubmatch(line); m != nil {
					want = append(want, fmt.Sprintf("%s:%d: %s %q", filepath.Base(f), i+1, m[1], m[2]))
				}
			}
		}
	}
	if len(want) < 25 {
		t.Fatalf("only %d marks read from the fixtures: the mark reader is broken", len(want))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("uses differ from the marks\ngot:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestReportUses: one Use per command, sorted; sites sorted by position,
// without duplicates; positions come from the caller's mapping.
func TestReportUses(t *testing.T) {
	r := &uses.Result{Sites: []uses.Site{
		{Command: rules.UseLua, Pos: 30, What: "Lua script (EVAL)"},
		{Command: rules.UseDELIFEQ, Pos: 20, What: "DELIFEQ release"},
		{Command: rules.UseDELIFEQ, Pos: 10, What: "DELIFEQ release"},
		{Command: rules.UseDELIFEQ, Pos: 10, What: "DELIFEQ release"},
	}}
	got := r.ReportUses(func(p token.Pos) finding.Position { return finding.Position{File: "a/a.go", Line: int(p), Col: 2} })
	want := []finding.Use{
		{Command: rules.UseDELIFEQ, Sites: []finding.Site{{Pos: finding.Position{File: "a/a.go", Line: 10, Col: 2}, What: "DELIFEQ release"}, {Pos: finding.Position{File: "a/a.go", Line: 20, Col: 2}, What: "DELIFEQ release"}}},
		{Command: rules.UseLua, Sites: []finding.Site{{Pos: finding.Position{File: "a/a.go", Line: 30, Col: 2}, What: "Lua script (EVAL)"}}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ReportUses:\n got %v\nwant %v", got, want)
	}
}

// TestMerge: uses of two packages join per command; a site seen twice (a
// package analysed with and without its tests) is kept once.
func TestMerge(t *testing.T) {
	site := func(file string, line int) finding.Site {
		return finding.Site{Pos: finding.Position{File: file, Line: line, Col: 1}, What: "DELIFEQ release"}
	}
	a := []finding.Use{{Command: rules.UseDELIFEQ, Sites: []finding.Site{site("b/b.go", 3)}}}
	b := []finding.Use{{Command: rules.UseIFEQ, Sites: []finding.Site{site("a/a.go", 1)}}, {Command: rules.UseDELIFEQ, Sites: []finding.Site{site("a/a.go", 9), site("b/b.go", 3)}}}
	got := uses.Merge(a, b)
	if len(got) != 2 || got[0].Command != rules.UseDELIFEQ || got[1].Command != rules.UseIFEQ {
		t.Fatalf("Merge: %v", got)
	}
	if s := got[0].Sites; len(s) != 2 || s[0].Pos.File != "a/a.go" || s[1].Pos.File != "b/b.go" {
		t.Errorf("Merge sites: %v", s)
	}
	if got := uses.Merge(nil, nil); len(got) != 0 {
		t.Errorf("Merge(nil, nil) = %v", got)
	}
}
