package driver

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// UnitOptions configure Unit.
type UnitOptions struct {
	// Settings are the analyzer options; the flags the analyzers declare
	// (-LA112.target ...) set them. Nil means the defaults.
	Settings *settings.Settings
	// Edit, when set, rewrites each reported diagnostic (PrefixRuleID).
	Edit func(*analysis.Diagnostic)
	// Off names rules whose diagnostics are dropped (turned off in the
	// config file). LA100 in Off drops the bad-directive analyzer.
	Off map[string]bool
}

// Unit wraps analyzers for drivers that run them one package at a time and
// print their diagnostics directly — go vet's unitchecker and
// golangci-lint — where lockaudit's own driver (Run) is not in charge:
//
//   - each analyzer drops the diagnostics that a //lockaudit:ignore or
//     //lockaudit:file-ignore directive in the package's files covers;
//   - an extra analyzer, LA100, reports malformed directives (no reason,
//     no rule, unknown rule or directive);
//   - diagnostics of rules in Off are dropped.
//
// What Unit cannot do: report stale directives. Each analyzer sees only its
// own diagnostics, so none of them can tell that a directive suppressed
// nothing across all rules; `lockaudit vet` (Run with Directives) does.
// Panics are recovered as in Wrap.
func Unit(as []*analysis.Analyzer, o UnitOptions) []*analysis.Analyzer {
	w := newWrapper(o.Settings, o.Edit)
	w.filter = func(pass *analysis.Pass, ds []analysis.Diagnostic) []analysis.Diagnostic {
		return unitFilter(pass, ds, o.Off)
	}
	out := w.wrapAll(as)
	if !o.Off[string(directive.RuleID)] {
		out = append(out, w.wrap(directiveAnalyzer))
	}
	return out
}

// unitFilter drops the diagnostics of rules that are off and those that a
// well-formed directive covers.
func unitFilter(pass *analysis.Pass, ds []analysis.Diagnostic, off map[string]bool) []analysis.Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	pos := func(p token.Pos) finding.Position {
		pp := pass.Fset.Position(p)
		return finding.Position{File: pp.Filename, Line: pp.Line, Col: pp.Column}
	}
	var dirs []*directive.Directive
	for _, f := range pass.Files {
		dirs = append(dirs, directive.Collect(f, pos)...)
	}
	findings := make([]finding.Finding, len(ds))
	for i, d := range ds {
		id := d.Category
		if id == "" {
			id = pass.Analyzer.Name
		}
		p := pos(d.Pos)
		findings[i] = finding.Finding{Rule: rules.ID(id), Message: d.Message, Pos: &p}
	}
	// No rule counts as having run: staleness is not decidable here.
	directive.Apply(findings, dirs, map[string]bool{})
	var out []analysis.Diagnostic
	for i, d := range ds {
		if findings[i].Suppressed == nil && !off[string(findings[i].Rule)] {
			out = append(out, d)
		}
	}
	return out
}

// directiveAnalyzer reports malformed //lockaudit directives, once per file
// (the rule analyzers only drop what well-formed ones cover).
var directiveAnalyzer = &analysis.Analyzer{
	Name: string(directive.RuleID),
	Doc:  directiveDoc(),
	URL:  rules.MustGet(directive.RuleID).URL(),
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			reportBadDirectives(pass, f)
		}
		return nil, nil
	},
}

func directiveDoc() string {
	r := rules.MustGet(directive.RuleID)
	return fmt.Sprintf("%s (%s)\n\n%s", r.Title, r.Name, r.Summary()+" (Stale directives are reported by `lockaudit vet` only.)")
}

func reportBadDirectives(pass *analysis.Pass, f *ast.File) {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			d, ok := directive.Parse(c.Text)
			if !ok || d.Err == "" {
				continue
			}
			pass.Report(analysis.Diagnostic{Pos: c.Slash, Category: string(directive.RuleID), Message: "lockaudit directive " + d.Err})
		}
	}
}
