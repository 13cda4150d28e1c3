package driver

import (
	"fmt"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Wrap returns copies of the analyzers (and of everything they require)
// for one run with settings s (nil: the defaults): settings.Analyzer's copy
// answers s and the options the analyzers declare set s (settings.Bind).
// Each copy's Run recovers a panic into an error naming the analyzer, so
// one bad package or analyzer bug cannot crash the whole run, and passes
// every diagnostic through edit first when edit is not nil. The wrapped
// passes see the original analyzers in Pass.Analyzer and Pass.ResultOf, so
// analyzers that read a prerequisite's result work unchanged.
//
// The go vet tool mode uses edit to put the rule ID in front of each message.
func Wrap(as []*analysis.Analyzer, s *settings.Settings, edit func(*analysis.Diagnostic)) []*analysis.Analyzer {
	return newWrapper(s, edit).wrapAll(as)
}

// PrefixRuleID is an edit for Wrap that starts a message with its rule ID
// (the diagnostic's Category), as plain go vet output has no category.
func PrefixRuleID(d *analysis.Diagnostic) {
	if d.Category != "" && !strings.HasPrefix(d.Message, d.Category+" ") {
		d.Message = d.Category + " " + d.Message
	}
}

type wrapper struct {
	settings *settings.Settings
	edit     func(*analysis.Diagnostic)
	// filter, when set, sees all of a pass's diagnostics once the analyzer
	// has run and returns those to report (Unit: directives, rules off).
	filter func(pass *analysis.Pass, ds []analysis.Diagnostic) []analysis.Diagnostic
	memo   map[*analysis.Analyzer]*analysis.Analyzer // original -> copy
	orig   map[*analysis.Analyzer]*analysis.Analyzer // copy -> original
}

func newWrapper(s *settings.Settings, edit func(*analysis.Diagnostic)) *wrapper {
	if s == nil {
		s = settings.Default()
	}
	return &wrapper{settings: s, edit: edit, memo: map[*analysis.Analyzer]*analysis.Analyzer{}, orig: map[*analysis.Analyzer]*analysis.Analyzer{}}
}

func (w *wrapper) wrapAll(as []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		out[i] = w.wrap(a)
	}
	return out
}

func (w *wrapper) wrap(a *analysis.Analyzer) *analysis.Analyzer {
	if c, ok := w.memo[a]; ok {
		return c
	}
	c := new(analysis.Analyzer)
	*c = *a
	w.memo[a], w.orig[c] = c, a
	c.Requires = w.wrapAll(a.Requires)
	w.settings.Bind(c, a)
	run := c.Run
	c.Run = func(pass *analysis.Pass) (result any, err error) {
		p := *pass
		p.Analyzer = a
		p.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
		for k, v := range pass.ResultOf {
			p.ResultOf[w.orig[k]] = v
		}
		report := pass.Report
		if w.edit != nil {
			p.Report = func(d analysis.Diagnostic) {
				w.edit(&d)
				report(d)
			}
		}
		var held []analysis.Diagnostic
		if w.filter != nil {
			p.Report = func(d analysis.Diagnostic) { held = append(held, d) }
		}
		defer func() {
			if r := recover(); r != nil {
				result, err = nil, fmt.Errorf("internal error (please report it): panic: %v\n%s", r, debug.Stack())
			}
		}()
		result, err = run(&p)
		if w.filter != nil && err == nil {
			for _, d := range w.filter(&p, held) {
				if w.edit != nil {
					w.edit(&d)
				}
				report(d)
			}
		}
		return result, err
	}
	return c
}
