package driver_test

import (
	"context"
	"go/ast"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// calls is a test analyzer: a call to bad() is an LA103 finding, a call to
// warn() an LA101 finding, and a call to boom() panics. Its result counts
// the calls it saw, for the Result hook.
var calls = &analysis.Analyzer{
	Name:       "calls",
	Doc:        "test analyzer",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	ResultType: reflect.TypeOf(0),
	Run: func(pass *analysis.Pass) (any, error) {
		n := 0
		ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		ins.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(node ast.Node) {
			n++
			id, ok := node.(*ast.CallExpr).Fun.(*ast.Ident)
			if !ok {
				return
			}
			switch id.Name {
			case "bad":
				pass.Report(analysis.Diagnostic{Pos: node.Pos(), Category: "LA103", Message: "plain DEL release"})
			case "warn":
				pass.Report(analysis.Diagnostic{Pos: node.Pos(), Category: "LA101", Message: "Lua lock script"})
			case "boom":
				panic("boom at " + pass.Fset.Position(node.Pos()).String())
			}
		})
		return n, nil
	},
}

// writeModule writes files (path -> content) under a new temporary
// directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var module = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": `package a

func bad()  {}
func warn() {}

func Release() {
	bad()
	if true { warn() }
}
`,
	"a/a_test.go": `package a

import "testing"

func TestRelease(t *testing.T) { bad() }
`,
	"broken/b.go":     "package broken\n\nfunc B() int { return undefinedThing }\n",
	"usesbroken/u.go": "package usesbroken\n\nimport \"example.com/m/broken\"\n\nvar X = broken.B()\n",
	"empty/README":    "no Go here\n",
}

func run(t *testing.T, dir string, opts driver.Options) *report.Run {
	t.Helper()
	opts.Dir = dir
	if opts.Analyzers == nil {
		opts.Analyzers = []*analysis.Analyzer{calls}
	}
	r, err := driver.Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("driver.Run: %v", err)
	}
	return r
}

func findingLines(r *report.Run) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Pos.String()+" "+f.Rule+" "+f.Severity.String()+" "+f.Message+" | "+f.Source)
	}
	return out
}

func errorLines(r *report.Run) []string {
	var out []string
	for _, e := range r.Errors {
		out = append(out, e.Where+": "+e.Message)
	}
	return out
}

func TestFindingsRelativeWithSourceAndSeverity(t *testing.T) {
	dir := writeModule(t, module)
	r := run(t, dir, driver.Options{Patterns: []string{"./a"}})
	want := []string{
		"a/a.go:7:2 LA103 error plain DEL release | bad()",
		"a/a.go:8:12 LA101 warning Lua lock script | if true { warn() }",
	}
	if got := findingLines(r); !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	if len(r.Errors) != 0 {
		t.Errorf("unexpected errors: %q", errorLines(r))
	}
	if !reflect.DeepEqual(r.Packages, []string{"./a"}) {
		t.Errorf("Packages = %q", r.Packages)
	}
	if !reflect.DeepEqual(r.AnalyzedPackages, []string{"example.com/m/a"}) {
		t.Errorf("AnalyzedPackages = %q, want the package the pattern matched", r.AnalyzedPackages)
	}
	if report.ExitCode(r) != report.ExitFindings {
		t.Errorf("exit code %d, want %d", report.ExitCode(r), report.ExitFindings)
	}
}

func TestTestsFlagAddsTestFilesOnce(t *testing.T) {
	dir := writeModule(t, module)
	r := run(t, dir, driver.Options{Patterns: []string{"./a"}, Tests: true})
	want := []string{
		"a/a.go:7:2 LA103 error plain DEL release | bad()",
		"a/a.go:8:12 LA101 warning Lua lock script | if true { warn() }",
		"a/a_test.go:5:34 LA103 error plain DEL release | func TestRelease(t *testing.T) { bad() }",
	}
	if got := findingLines(r); !reflect.DeepEqual(got, want) {
		t.Errorf("findings with -tests (a/a.go is in two package variants, must appear once):\n got %q\nwant %q", got, want)
	}
	if !reflect.DeepEqual(r.AnalyzedPackages, []string{"example.com/m/a"}) {
		t.Errorf("AnalyzedPackages with -tests = %q, want the package once", r.AnalyzedPackages)
	}
}

func TestBrokenPackageIsReportedAndOthersStillAnalysed(t *testing.T) {
	dir := writeModule(t, module)
	r := run(t, dir, driver.Options{}) // default ./...
	if len(r.Findings) != 2 {
		t.Errorf("package a must still be analysed; findings: %q", findingLines(r))
	}
	for _, p := range r.AnalyzedPackages {
		if strings.Contains(p, "broken") {
			t.Errorf("AnalyzedPackages %q lists %s, which was not analysed", r.AnalyzedPackages, p)
		}
	}
	if len(r.AnalyzedPackages) == 0 || r.AnalyzedPackages[0] != "example.com/m/a" {
		t.Errorf("AnalyzedPackages = %q, want example.com/m/a first", r.AnalyzedPackages)
	}
	want := []string{
		"example.com/m/broken: broken/b.go:3:23: undefined: undefinedThing",
		"example.com/m/usesbroken: not analysed: it imports a package with errors",
	}
	if got := errorLines(r); !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
	if got := report.ExitCode(r); got != report.ExitFailed {
		t.Errorf("exit code %d, want %d (incomplete run)", got, report.ExitFailed)
	}
}

// TestLoadErrorsRootCauseFirst: when a package fails to compile, the
// packages that import it fail too; the run shows the cause first, even
// when an importer's path sorts before it, and once (not under a repeated
// "# pkg" line of go list's).
func TestLoadErrorsRootCauseFirst(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"aaa/a.go":      "package aaa\n\nimport \"example.com/m/zzbroken\"\n\nfunc F() int { return zzbroken.G() }\n",
		"zzbroken/z.go": "package zzbroken\n\nfunc G() int { return undefinedThing }\n",
		"mmm/m.go":      "package mmm\n\nfunc H() int { return 1 }\n",
	})
	for _, patterns := range [][]string{{"./..."}, {"./aaa"}} {
		r := run(t, dir, driver.Options{Patterns: patterns})
		got := errorLines(r)
		if len(got) != 2 {
			t.Fatalf("%q: errors %q, want the cause and its side effect", patterns, got)
		}
		if want := "example.com/m/zzbroken: zzbroken/z.go:3:23: undefined: undefinedThing"; got[0] != want {
			t.Errorf("%q: first error %q, want the cause %q", patterns, got[0], want)
		}
		if want := "example.com/m/aaa: not analysed: it imports a package with errors"; got[1] != want {
			t.Errorf("%q: second error %q, want %q", patterns, got[1], want)
		}
	}
}

func TestPatternsThatMatchNothing(t *testing.T) {
	dir := writeModule(t, module)
	for _, tc := range []struct {
		patterns []string
		want     []string // substrings of the error lines, in order
	}{
		{[]string{"./empty/..."}, []string{"./empty/...: pattern matched no packages"}},
		{[]string{"./a", "./empty/..."}, []string{"./empty/...: pattern matched no packages"}},
		{[]string{"./a", "example.com/m/nothing/..."}, []string{"example.com/m/nothing/...: pattern matched no packages"}},
		{[]string{"./nope"}, []string{"directory not found"}},
		{[]string{"./nope/..."}, []string{"no such file or directory"}},
		{[]string{"example.com/zzz"}, []string{"example.com/zzz: no required module provides package example.com/zzz"}},
	} {
		r := run(t, dir, driver.Options{Patterns: tc.patterns})
		got := errorLines(r)
		if len(got) != len(tc.want) {
			t.Errorf("%q: errors %q, want %d matching %q", tc.patterns, got, len(tc.want), tc.want)
			continue
		}
		for i := range got {
			if !strings.Contains(got[i], tc.want[i]) {
				t.Errorf("%q: error %q does not contain %q", tc.patterns, got[i], tc.want[i])
			}
		}
		if report.ExitCode(r) != report.ExitFailed {
			t.Errorf("%q: exit code %d, want 1", tc.patterns, report.ExitCode(r))
		}
	}
	// Patterns that match are not reported, including a test-only package.
	dir2 := writeModule(t, map[string]string{
		"go.mod":             "module example.com/t\n\ngo 1.22\n",
		"lib/lib.go":         "package lib\n",
		"testonly/x_test.go": "package testonly\n",
	})
	r := run(t, dir2, driver.Options{Patterns: []string{"./lib/...", "./testonly/...", "example.com/t/..."}})
	if len(r.Errors) != 0 {
		t.Errorf("matching patterns reported: %q", errorLines(r))
	}
}

func TestRelativeDir(t *testing.T) {
	dir := writeModule(t, module)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, rel, driver.Options{Patterns: []string{"./a/...", "example.com/m/a"}})
	if len(r.Errors) != 0 || len(r.Findings) != 2 || r.Findings[0].Pos.File != "a/a.go" {
		t.Errorf("relative Dir %s: errors %q, findings %q", rel, errorLines(r), findingLines(r))
	}
}

func TestPanickingAnalyzerBecomesAnError(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":   "module example.com/p\n\ngo 1.22\n",
		"p/p.go":   "package p\n\nfunc boom() {}\n\nfunc F() { boom() }\n",
		"q/q.go":   "package q\n\nfunc bad() {}\n\nfunc G() { bad() }\n",
		"p/doc.go": "// Package p panics the analyzer.\npackage p\n",
	})
	r := run(t, dir, driver.Options{})
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, "analyzer calls: internal error (please report it): panic: boom at") || r.Errors[0].Where != "example.com/p/p" {
		t.Errorf("errors: %q", errorLines(r))
	}
	if len(r.Findings) != 1 || r.Findings[0].Pos.File != "q/q.go" {
		t.Errorf("the other package must still be analysed: %q", findingLines(r))
	}
}

func TestResultHookSeesOriginalAnalyzer(t *testing.T) {
	dir := writeModule(t, module)
	got := map[string]int{}
	run(t, dir, driver.Options{Patterns: []string{"./a"}, Result: func(a *analysis.Analyzer, pkg *packages.Package, result any) {
		if a != calls {
			t.Errorf("Result hook got analyzer %p (%s), want the original %p", a, a.Name, calls)
		}
		got[pkg.PkgPath] = result.(int)
	}})
	if got["example.com/m/a"] != 2 {
		t.Errorf("Result hook: %v, want 2 calls in example.com/m/a", got)
	}
}

func TestMissingDirectory(t *testing.T) {
	_, err := driver.Run(context.Background(), driver.Options{Dir: filepath.Join(t.TempDir(), "nope"), Analyzers: []*analysis.Analyzer{calls}})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v, want one naming the missing directory", err)
	}
}

func TestPrefixRuleID(t *testing.T) {
	for _, tc := range []struct{ cat, msg, want string }{
		{"LA103", "plain DEL", "LA103 plain DEL"},
		{"LA103", "LA103 plain DEL", "LA103 plain DEL"},
		{"", "no category", "no category"},
	} {
		d := analysis.Diagnostic{Category: tc.cat, Message: tc.msg}
		driver.PrefixRuleID(&d)
		if d.Message != tc.want {
			t.Errorf("PrefixRuleID(%q, %q) = %q, want %q", tc.cat, tc.msg, d.Message, tc.want)
		}
	}
}

func TestUnknownCategoryGetsWarning(t *testing.T) {
	// A diagnostic whose category is not a catalog rule keeps it as the
	// rule and defaults to warning (never silently dropped).
	odd := &analysis.Analyzer{Name: "odd", Doc: "d", Run: func(pass *analysis.Pass) (any, error) {
		pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Message: "odd"})
		return nil, nil
	}}
	dir := writeModule(t, module)
	r := run(t, dir, driver.Options{Patterns: []string{"./a"}, Analyzers: []*analysis.Analyzer{odd}})
	if len(r.Findings) != 1 || r.Findings[0].Rule != "odd" || r.Findings[0].Severity != rules.Warning {
		t.Errorf("findings: %+v", r.Findings)
	}
}

// TestPartialRunRefusedModule: a module whose dependency the module proxy
// refuses (403, from a proxy on loopback) and whose other package embeds a
// missing file. The run says how much it analysed, leads with the root
// causes — the refusal first, then the missing file — and puts what only
// follows from them (a failed import, an importer not analysed) last.
func TestPartialRunRefusedModule(t *testing.T) {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "This module version is not available.", http.StatusForbidden)
	}))
	defer proxy.Close()
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/partial\n\ngo 1.22\n\nrequire example.com/refused v1.0.0\n",
		"a/a.go": "package a\n\nimport (\n\t\"strings\"\n\n\terrs \"example.com/refused/errs\"\n)\n\nfunc F() error { return errs.New(strings.ToUpper(\"x\")) }\n",
		"b/b.go": "package b\n\nimport _ \"embed\"\n\n//go:embed missing.lua\nvar script string\n",
		"c/c.go": "package c\n\nimport \"example.com/partial/a\"\n\nfunc G() error { return a.F() }\n",
		"d/d.go": "package d\n\nfunc H() { bad() }\n\nfunc bad() {}\n",
		"go.sum": "",
		"README": "a partial module\n",
	})
	env := append(os.Environ(), "GOPROXY="+proxy.URL, "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOMODCACHE="+t.TempDir(), "GOTOOLCHAIN=local")
	r := run(t, dir, driver.Options{Env: env})
	if want := []string{"example.com/partial/d"}; !reflect.DeepEqual(r.AnalyzedPackages, want) {
		t.Errorf("AnalyzedPackages = %q, want %q", r.AnalyzedPackages, want)
	}
	if want := []string{"example.com/partial/a", "example.com/partial/b", "example.com/partial/c"}; !reflect.DeepEqual(r.UnanalyzedPackages, want) {
		t.Errorf("UnanalyzedPackages = %q, want %q", r.UnanalyzedPackages, want)
	}
	got := errorLines(r)
	if len(got) < 3 || !strings.Contains(got[0], "403 Forbidden") || !strings.Contains(got[1], "missing.lua") {
		t.Fatalf("errors %q: want the proxy's refusal first, then the missing file", got)
	}
	for _, e := range got[2:] {
		if strings.Contains(e, "403") || strings.Contains(e, "missing.lua") {
			t.Errorf("a root cause after the side effects: %q", got)
		}
	}
	sum := report.Summary(r)
	if !strings.Contains(sum, "incomplete run: analysed 1 of 4 packages") || !strings.Contains(sum, "403 Forbidden") {
		t.Errorf("summary %q: want the coverage and the refusal named", sum)
	}
	if len(r.Findings) != 1 || report.ExitCode(r) != report.ExitFailed {
		t.Errorf("findings %q, exit %d: package d is still analysed, and the run fails as incomplete", findingLines(r), report.ExitCode(r))
	}
}
