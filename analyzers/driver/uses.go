package driver

import (
	"go/token"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/lockaudit/lockaudit/analyzers/uses"
	"github.com/lockaudit/lockaudit/report/finding"
)

// usesOf collects the commands the code relies on, when uses.Analyzer is
// among the root analyzers (audit and preflight add it): one Use per
// command, sites sorted, positions relative to the module root like the
// findings'. Nil otherwise.
func usesOf(graph *checker.Graph, paths *pathMapper) []finding.Use {
	var out []finding.Use
	for act := range graph.All() {
		r, ok := act.Result.(*uses.Result)
		if !ok || !act.IsRoot || act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		out = uses.Merge(out, r.ReportUses(func(p token.Pos) finding.Position {
			pos := fset.Position(p)
			return finding.Position{File: paths.rel(pos.Filename), Line: pos.Line, Col: pos.Column}
		}))
	}
	return out
}
