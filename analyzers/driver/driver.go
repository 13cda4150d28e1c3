// Package driver runs go/analysis analyzers over packages loaded with
// go/packages and turns their diagnostics into findings (finding.Code, the
// code half of a report.Run). It is the one
// analysis driver behind `lockaudit vet`, `audit`, `preflight` and the
// benchmark: one load, one checker run, whatever the analyzers.
package driver

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// Options says what to analyse and how.
type Options struct {
	// Dir is the directory the patterns are relative to (the -C flag); ""
	// means the process's working directory.
	Dir string
	// Patterns are go list package patterns; none means "./...".
	Patterns []string
	// Analyzers are the root analyzers to run (their Requires run too).
	Analyzers []*analysis.Analyzer
	// Settings are the analyzer options of the run; nil means the defaults.
	Settings *settings.Settings
	// Tests also analyses the packages' test files.
	Tests bool
	// Generated also reports findings (and takes fixes) in generated
	// files, those with a "// Code generated ... DO NOT EDIT." line
	// (ast.IsGenerated); by default they are skipped, as staticcheck and
	// golangci-lint do: nobody fixes them by hand. What they rely on
	// (Run.Uses) counts either way: the deployed code sends it.
	Generated bool
	// Env, when set, replaces the environment of the go command.
	Env []string
	// Result, when set, is called once per root analyzer and analysed
	// package with the analyzer's result (audit reads the resolve layer's
	// result this way). It runs after the analysis, in no defined order.
	Result func(a *analysis.Analyzer, pkg *packages.Package, result any)
	// Directives applies the //lockaudit:ignore and //lockaudit:file-ignore
	// comments of the analysed files: the findings they cover are marked
	// suppressed (kind inSource, with the reason).
	Directives bool
	// DirectiveFindings (with Directives) also reports malformed and stale
	// directives as LA100 findings, and lists LA100 in Run.Rules. Off when
	// LA100 is turned off: directives then still suppress, silently.
	DirectiveFindings bool
	// Fixes, when set, collects the findings' suggested fixes (vet -fix,
	// -diff); see fix.go.
	Fixes *Fixes
}

// Run loads the packages, runs the analyzers and returns what they found:
// Packages, Rules, Errors and Findings (findings sorted), and Uses when
// uses.Analyzer is among the analyzers (audit, preflight). The code half
// (codehalf) makes a report.Run of it.
//
// Packages that do not load or type-check are recorded in Errors, one
// entry per compiler error, and the packages that do load are still
// analysed; report.ExitCode then fails the run (exit 1) because it is
// incomplete. A pattern that matches no package is recorded the same way.
// The returned error is for failures that leave nothing to report (the go
// command cannot run, an invalid analyzer set, a cancelled context).
func Run(ctx context.Context, opts Options) (*finding.Code, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	dir := opts.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("directory %s does not exist", dir)
	}
	dir, err := filepath.Abs(dir) // go list reports absolute file names
	if err != nil {
		return nil, err
	}
	w := newWrapper(opts.Settings, nil)
	analyzers := w.wrapAll(opts.Analyzers)
	if err := analysis.Validate(analyzers); err != nil {
		return nil, err
	}

	// The patterns from source, their dependencies from export data; the
	// few dependencies that fact-using analyzers need are loaded from
	// source below (facts.go).
	mode := packages.LoadSyntax | packages.NeedModule
	cfg := &packages.Config{Context: ctx, Mode: mode, Dir: dir, Tests: opts.Tests, Env: opts.Env}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %v", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	run := &finding.Code{Findings: []finding.Finding{}}
	run.Packages = append([]string(nil), patterns...)
	run.Rules = ruleIDs(opts.Analyzers)
	paths := newPathMapper(dir, pkgs)

	// A pattern that matched nothing is an error: a typo must not turn into
	// a clean run. (Most bad patterns come back as a package with an error,
	// recorded below; "./x/..." over a directory without Go code does not.)
	for _, p := range unmatched(patterns, dir, pkgs) {
		run.Errors = append(run.Errors, finding.Error{Where: p, Message: "pattern matched no packages"})
	}

	run.Errors = append(run.Errors, loadErrors(pkgs, paths)...)

	var ok, failed []*packages.Package
	for _, p := range pkgs {
		if isTestMain(p) {
			continue // the generated test main holds no user code
		}
		if p.IllTyped {
			if len(p.Errors) == 0 {
				run.Errors = append(run.Errors, finding.Error{Where: p.PkgPath, Message: importsBroken})
			}
			failed = append(failed, p)
			continue
		}
		ok = append(ok, p)
	}
	// How much a partial run covers: the matched packages not analysed
	// (a package whose test variant loaded still counts as analysed).
	run.UnanalyzedPackages = notIn(pkgPaths(failed), pkgPaths(ok))
	if len(ok) > 0 && needFacts(analyzers) {
		if ok, err = loadForFacts(ctx, cfg, patterns, ok); err != nil {
			return nil, fmt.Errorf("loading packages: %v", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if len(ok) > 0 && len(analyzers) > 0 {
		graph, err := checker.Analyze(analyzers, ok, nil)
		if err != nil {
			return nil, err
		}
		findings, errs := convert(graph, paths, w, opts)
		run.Findings = append(run.Findings, findings...)
		run.Errors = append(run.Errors, errs...)
		run.Uses = usesOf(graph, paths)
		run.AnalyzedPackages = pkgPaths(ok)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Directives {
		applyDirectives(run, ok, paths, opts.DirectiveFindings, opts.Generated)
	}
	finding.Sort(run.Findings)
	sortErrors(run.Errors)
	return run, nil
}

// convert turns the graph's diagnostics into findings and its failed actions
// into errors.
func convert(graph *checker.Graph, paths *pathMapper, w *wrapper, opts Options) ([]finding.Finding, []finding.Error) {
	var findings []finding.Finding
	var errs []finding.Error
	seen := map[string]bool{} // a file is analysed twice with -tests (pkg and pkg [pkg.test])
	for act := range graph.All() {
		if act.Err != nil {
			// A failed prerequisite is reported where it failed.
			if !strings.HasPrefix(act.Err.Error(), "failed prerequisites") {
				errs = append(errs, finding.Error{Where: act.Package.PkgPath, Message: fmt.Sprintf("analyzer %s: %v", act.Analyzer.Name, act.Err)})
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		if opts.Result != nil && act.Result != nil {
			opts.Result(w.orig[act.Analyzer], act.Package, act.Result)
		}
		generated := generatedFiles(act.Package, opts.Generated)
		for _, d := range act.Diagnostics {
			if generated[act.Package.Fset.Position(d.Pos).Filename] {
				continue
			}
			f := paths.finding(act.Package.Fset, w.orig[act.Analyzer], d)
			if f.Pos != nil {
				f.Func = enclosingFunc(act.Package.Syntax, d.Pos)
			}
			if opts.Fixes != nil {
				opts.Fixes.add(act.Package.Fset, paths, f, d) // every variant: identical fixes are kept once
			}
			key := findingKey(f)
			if seen[key] {
				continue
			}
			seen[key] = true
			findings = append(findings, f)
		}
	}
	return findings, errs
}

// generatedFiles names the package's generated files (ast.IsGenerated),
// whose findings are skipped; none when include (Options.Generated).
func generatedFiles(pkg *packages.Package, include bool) map[string]bool {
	if include {
		return nil
	}
	var out map[string]bool
	for _, f := range pkg.Syntax {
		if ast.IsGenerated(f) {
			if out == nil {
				out = map[string]bool{}
			}
			out[pkg.Fset.File(f.Pos()).Name()] = true
		}
	}
	return out
}

// finding converts one diagnostic. The rule is the diagnostic's Category
// (set by ruleutil.Report), falling back to the analyzer's name; the
// severity comes from the catalog.
func (m *pathMapper) finding(fset *token.FileSet, a *analysis.Analyzer, d analysis.Diagnostic) finding.Finding {
	id := rules.ID(cmp.Or(d.Category, a.Name))
	sev := rules.Warning
	if r, ok := rules.Get(id); ok {
		sev = r.Severity
	}
	p := fset.Position(d.Pos)
	f := finding.Finding{Rule: id, Severity: sev, Message: d.Message}
	if p.IsValid() {
		f.Pos = &finding.Position{File: m.rel(p.Filename), Line: p.Line, Col: p.Column}
		f.Source = m.line(p.Filename, p.Line)
	}
	return f
}

// loadErrors collects every package's load, parse and type errors, once
// each, from the initial packages and their dependencies.
func loadErrors(pkgs []*packages.Package, paths *pathMapper) []finding.Error {
	var out []finding.Error
	seen := map[string]bool{}
	add := func(where, msg string) {
		key := where + "\x00" + msg
		if !seen[key] {
			seen[key] = true
			out = append(out, finding.Error{Where: where, Message: msg})
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Error != nil {
			add(p.Module.Path, p.Module.Error.Err)
		}
		precise := false
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError || e.Kind == packages.ParseError {
				precise = true
			}
		}
		where := p.PkgPath
		if where == "" {
			where = p.ID
		}
		for _, e := range p.Errors {
			// `go list -export` repeats compiler errors as "# pkg\n...";
			// the type checker's own errors say the same with positions.
			if precise && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			msg := strings.TrimSpace(e.Msg)
			// `go list` starts a compile error with "# pkg": the report
			// already heads the package's errors with its path.
			if rest, ok := strings.CutPrefix(msg, "# "+where+"\n"); ok {
				msg = strings.TrimSpace(rest)
			}
			if e.Pos != "" && e.Pos != "-" {
				msg = paths.relPos(e.Pos) + ": " + msg
			}
			add(where, msg+experimentHint(where, msg))
		}
	})
	return out
}

// experimentHint names the GOEXPERIMENT a standard-library package is
// built under when the go command excludes all its files (encoding/json/v2
// needs GOEXPERIMENT=jsonv2 in Go 1.25 and 1.26): the module builds with
// that setting, and the run needs it too. It reads the package's own
// //go:build lines, so it follows the Go release installed; "" otherwise.
func experimentHint(pkg, msg string) string {
	_, dir, ok := strings.Cut(msg, "build constraints exclude all Go files in ")
	if !ok {
		return ""
	}
	// A standard-library package: no dot in its first element, its
	// directory GOROOT/src/<path>.
	dir = strings.TrimSpace(dir)
	first, _, _ := strings.Cut(pkg, "/")
	if strings.Contains(first, ".") || !strings.HasSuffix(filepath.ToSlash(dir), "/src/"+pkg) {
		return ""
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.SplitN(string(data), "\n", 40) {
			expr, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:build ")
			if !ok {
				continue
			}
			if name := wantedExperiment(expr); name != "" {
				return fmt.Sprintf(" (%s is built only with GOEXPERIMENT=%s: set it as the module's build does)", pkg, name)
			}
		}
	}
	return ""
}

// wantedExperiment is the first experiment a //go:build expression asks
// for (goexperiment.jsonv2), not one it rules out (!goexperiment.x).
func wantedExperiment(expr string) string {
	for rest := expr; ; {
		before, after, ok := strings.Cut(rest, "goexperiment.")
		if !ok {
			return ""
		}
		end := strings.IndexFunc(after, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
		if end < 0 {
			end = len(after)
		}
		if !strings.HasSuffix(strings.TrimSpace(before), "!") && end > 0 {
			return after[:end]
		}
		rest = after[end:]
	}
}

// importsBroken is the error of a package that is not analysed only
// because a package it imports has errors.
const importsBroken = "not analysed: it imports a package with errors"

// sortErrors puts the root causes first — a module the go command could
// not fetch (a proxy's refusal, a missing go.sum entry) before a package's
// own load, parse and type errors (a missing embedded file) and a pattern
// that matched nothing — and their side effects after them (a package not
// analysed because an import is broken, "could not import" and "no
// metadata" errors, and what is undefined in a package because its import
// failed), each group by package and message: the first error a run shows
// is one to fix.
func sortErrors(errs []finding.Error) {
	failedImport := map[string]bool{}
	for _, e := range errs {
		if strings.Contains(e.Message, "could not import ") || fetchError(e) {
			failedImport[e.Where] = true
		}
	}
	rank := func(e finding.Error) int {
		switch {
		case fetchError(e):
			return 0
		case sideEffect(e, failedImport[e.Where]):
			return 2
		}
		return 1
	}
	sort.SliceStable(errs, func(i, j int) bool {
		if a, b := rank(errs[i]), rank(errs[j]); a != b {
			return a < b
		}
		if errs[i].Where != errs[j].Where {
			return errs[i].Where < errs[j].Where
		}
		return errs[i].Message < errs[j].Message
	})
}

// sideEffect reports an error that only follows from another package's:
// importFailed says an import of the same package failed, so what it
// leaves undefined is a consequence.
func sideEffect(e finding.Error, importFailed bool) bool {
	switch {
	case e.Message == importsBroken, strings.Contains(e.Message, "could not import "), strings.Contains(e.Message, "no metadata for "):
		return true
	case importFailed && strings.Contains(e.Message, "undefined: "):
		return true
	}
	return false
}

// fetchError reports an error of the go command fetching a module: the
// proxy refused or lacks it, the network failed, go.sum has no entry, no
// module provides the package.
func fetchError(e finding.Error) bool {
	for _, s := range []string{"403 Forbidden", "404 Not Found", "410 Gone", "reading http", "missing go.sum entry", "no required module provides", "cannot find module providing", "module lookup disabled", "dial tcp", "invalid version: "} {
		if strings.Contains(e.Message, s) {
			return true
		}
	}
	return false
}

// notIn lists the strings of a not in b.
func notIn(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// pkgPaths lists the packages' import paths once each, sorted (a package
// and its test variant are one path).
func pkgPaths(pkgs []*packages.Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pkgs {
		if p.PkgPath != "" && !seen[p.PkgPath] {
			seen[p.PkgPath] = true
			out = append(out, p.PkgPath)
		}
	}
	sort.Strings(out)
	return out
}

// ruleIDs lists the catalog rules among the analyzers' names, sorted.
func ruleIDs(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		if _, ok := rules.Lookup(a.Name); ok {
			out = append(out, a.Name)
		}
	}
	sort.Strings(out)
	return out
}

// isTestMain reports whether p is the generated main of a test binary.
func isTestMain(p *packages.Package) bool {
	return strings.HasSuffix(p.ID, ".test") && p.Name == "main"
}

// needFacts reports whether any analyzer, or one it requires, uses facts.
func needFacts(as []*analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer) bool
	visit = func(a *analysis.Analyzer) bool {
		if seen[a] {
			return false
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return true
		}
		for _, r := range a.Requires {
			if visit(r) {
				return true
			}
		}
		return false
	}
	for _, a := range as {
		if visit(a) {
			return true
		}
	}
	return false
}
