package analyzertest

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/lockaudit/lockaudit/analyzers/settings"
)

var update = flag.Bool("update", false, "write the .golden files of the fix fixtures (then review them line by line)")

// RunFixes runs the analyzer with settings s (nil: the defaults) on the
// fixture packages (see Run) and checks its's suggested fixes on its fixtures beyond what
// analysistest.RunWithSuggestedFixes checks (that the fixed files match
// their .golden files):
//
//   - a diagnostic on a line marked `nofix` must carry no fix, and every
//     other diagnostic in a fix fixture must carry one, so a fix that is
//     lost or offered where it must not be fails the test;
//   - the fixed package compiles: the fixes are applied as `lockaudit vet
//     -fix` applies them (no import clean-up; its gofmt of an already
//     formatted file is left out, as it cannot change what compiles) and
//     the result is type-checked, and so are the .golden files (a
//     package's goldens together; a txtar golden's sections one fix
//     message at a time).
//
// It runs analysistest.RunWithSuggestedFixes and the checks above. With
// -update it first writes each fixture's .golden file from the fixes
// (plain form: every fix applied, gofmt'ed).
func RunFixes(t *testing.T, a *analysis.Analyzer, s *settings.Settings, pkgs ...string) []*analysistest.Result {
	t.Helper()
	dir := Dir(t)
	a = bind(a, s)
	if *update {
		for name, out := range applyAll(t, analysistest.Run(t, dir, a, pkgs...)) {
			if f, err := format.Source(out); err == nil {
				out = f
			}
			if err := os.WriteFile(name+".golden", out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s.golden", name)
		}
	}
	results := analysistest.RunWithSuggestedFixes(t, dir, a, pkgs...)
	CheckMessages(t, results)
	checkMarks(t, results)
	fixed := applyAll(t, results)
	if len(fixed) > 0 {
		typeCheck(t, dir, "the fixes as -fix applies them", fixed)
	}
	// The goldens must compile: a package's plain goldens together, and
	// each txtar section name across the package's files together.
	for _, pkg := range pkgs {
		goldens, _ := filepath.Glob(filepath.Join(dir, "src", pkg, "*.go.golden"))
		plain := map[string][]byte{}
		sections := map[string]map[string][]byte{}
		for _, g := range goldens {
			ar, err := txtar.ParseFile(g)
			if err != nil {
				t.Errorf("%s: %v", g, err)
				continue
			}
			src := strings.TrimSuffix(g, ".golden")
			if len(ar.Files) == 0 {
				plain[src] = ar.Comment
				continue
			}
			for _, f := range ar.Files {
				if sections[f.Name] == nil {
					sections[f.Name] = map[string][]byte{}
				}
				sections[f.Name][src] = f.Data
			}
		}
		if len(plain) > 0 {
			typeCheck(t, dir, pkg+"'s .golden files", plain)
		}
		for name, files := range sections {
			typeCheck(t, dir, pkg+"'s golden section "+name, files)
		}
	}
	return results
}

// checkMarks checks that nofix lines have no fix and the others have one.
func checkMarks(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		fset := r.Action.Package.Fset
		for _, d := range r.Diagnostics {
			p := fset.Position(d.Pos)
			nofix := strings.Contains(sourceLine(t, p.Filename, p.Line), "nofix")
			switch {
			case nofix && len(d.SuggestedFixes) > 0:
				t.Errorf("%s:%d: a fix is offered on a nofix line: %q", filepath.Base(p.Filename), p.Line, d.SuggestedFixes[0].Message)
			case !nofix && len(d.SuggestedFixes) == 0:
				t.Errorf("%s:%d: no fix offered (mark the line nofix if none is wanted): %s", filepath.Base(p.Filename), p.Line, d.Message)
			}
		}
	}
}

// applyAll applies every single fix of the results to the files, as -fix
// does; diagnostics offering alternatives are left to the txtar goldens.
func applyAll(t *testing.T, results []*analysistest.Result) map[string][]byte {
	t.Helper()
	fixed := map[string][]byte{}
	for _, r := range results {
		fset := r.Action.Package.Fset
		edits := map[string][]analysis.TextEdit{}
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) != 1 {
				continue
			}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				name := fset.File(e.Pos).Name()
				edits[name] = append(edits[name], e)
			}
		}
		for name, es := range edits {
			out, err := apply(fset, name, es)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			fixed[name] = out
		}
	}
	return fixed
}

func sourceLine(t *testing.T, file string, n int) string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// apply applies edits to a file, identical edits once, and fails on
// overlapping ones.
func apply(fset *token.FileSet, name string, es []analysis.TextEdit) ([]byte, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	tf := fset.File(es[0].Pos)
	type edit struct {
		start, end int
		text       string
	}
	var list []edit
	seen := map[edit]bool{}
	for _, e := range es {
		x := edit{tf.Offset(e.Pos), tf.Offset(e.End), string(e.NewText)}
		if e.End == token.NoPos {
			x.end = x.start
		}
		if !seen[x] {
			seen[x] = true
			list = append(list, x)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].start < list[j].start })
	var b bytes.Buffer
	last := 0
	for _, e := range list {
		if e.start < last {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.start)
		}
		b.Write(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.Write(src[last:])
	return b.Bytes(), nil
}

// typeCheck loads the packages of the overlaid files from the GOPATH tree
// at dir and fails on any error.
func typeCheck(t *testing.T, dir, what string, overlay map[string][]byte) {
	t.Helper()
	dirs := map[string]bool{}
	for f := range overlay {
		dirs[filepath.Dir(f)] = true
	}
	var patterns []string
	for d := range dirs {
		patterns = append(patterns, "./"+filepath.ToSlash(mustRel(t, filepath.Join(dir, "src"), d)))
	}
	sort.Strings(patterns)
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedDeps | packages.NeedImports,
		Dir:     filepath.Join(dir, "src"),
		Env:     append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Errorf("%s: loading %v: %v", what, patterns, err)
		return
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s does not compile: %v", what, e)
		}
	})
}

func mustRel(t *testing.T, base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
