package driver

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"

	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/report/finding"
)

// applyDirectives reads the //lockaudit:ignore and //lockaudit:file-ignore
// comments of every analysed file (each file once, though -tests analyses a
// package's files twice), marks the findings they suppress, and (report100)
// adds LA100 findings for malformed directives and for directives that
// suppressed nothing. Only the rules that ran (run.Rules) can make a directive stale,
// so -rules subsets do not flag the other rules' directives. Packages that
// were not analysed (they did not type-check) are skipped: their
// directives would all look stale.
func applyDirectives(run *finding.Code, pkgs []*packages.Package, paths *pathMapper, report100, generated bool) {
	var dirs []*directive.Directive
	seen := map[string]bool{}
	abs := map[string]string{} // module-relative file -> file name, for source lines
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			name := p.Fset.File(f.FileStart).Name()
			if seen[name] || (!generated && ast.IsGenerated(f)) {
				continue // a generated file's findings are skipped, and so are its directives
			}
			seen[name] = true
			rel := paths.rel(name)
			abs[rel] = name
			dirs = append(dirs, directive.Collect(f, func(pos token.Pos) finding.Position {
				pp := p.Fset.Position(pos)
				return finding.Position{File: paths.rel(pp.Filename), Line: pp.Line, Col: pp.Column}
			})...)
		}
	}
	sort.SliceStable(dirs, func(i, j int) bool {
		a, b := dirs[i].Pos, dirs[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	ran := map[string]bool{}
	for _, id := range run.Rules {
		ran[id] = true
	}
	bad := directive.Apply(run.Findings, dirs, ran)
	if !report100 {
		return
	}
	for i := range bad {
		if name, ok := abs[bad[i].Pos.File]; ok {
			bad[i].Source = paths.line(name, bad[i].Pos.Line)
		}
	}
	run.Findings = append(run.Findings, bad...)
	if !slices.Contains(run.Rules, string(directive.RuleID)) {
		run.Rules = append(run.Rules, string(directive.RuleID))
		sort.Strings(run.Rules)
	}
}
