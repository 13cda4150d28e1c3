// Package ruleutil builds rule analyzers from the catalog, so an analyzer's
// name, doc and diagnostic category always come from rules/catalog.yaml.
package ruleutil

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/rules"
)

// New returns the analyzer for a catalog rule. Its Name is the rule ID (a
// valid identifier, as analysis.Validate requires), its Doc the catalog's
// title and text, and it requires the shared resolve layer.
func New(id string, run func(*analysis.Pass) (any, error), requires ...*analysis.Analyzer) *analysis.Analyzer {
	r := rules.MustGet(id)
	return &analysis.Analyzer{
		Name:     r.ID,
		Doc:      fmt.Sprintf("%s (%s)\n\n%s", r.Title, r.Name, r.Summary()),
		URL:      r.URL(),
		Requires: append([]*analysis.Analyzer{resolve.Analyzer}, requires...),
		Run:      run,
	}
}

// Ops returns the resolve layer's result for the pass.
func Ops(pass *analysis.Pass) *resolve.Result {
	return pass.ResultOf[resolve.Analyzer].(*resolve.Result)
}

// Report reports a finding of rule id at pos. Category carries the rule ID,
// which the driver, SARIF and suppressions key on.
func Report(pass *analysis.Pass, id string, pos token.Pos, format string, args ...any) {
	pass.Report(analysis.Diagnostic{Pos: pos, Category: id, Message: fmt.Sprintf(format, args...)})
}

// ReportFix is Report with suggested fixes.
func ReportFix(pass *analysis.Pass, id string, pos token.Pos, fixes []analysis.SuggestedFix, format string, args ...any) {
	pass.Report(analysis.Diagnostic{Pos: pos, Category: id, Message: fmt.Sprintf(format, args...), SuggestedFixes: fixes})
}
