// Package ruleutil builds rule analyzers from the catalog, so an analyzer's
// name, doc and diagnostic category always come from rules/catalog.yaml,
// and is the one place their diagnostics are reported (Report, ReportFix).
package ruleutil

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/internal/safetext"
	"github.com/lockaudit/lockaudit/rules"
)

// New returns the analyzer for a catalog rule. Its Name is the rule ID (a
// valid identifier, as analysis.Validate requires), its Doc the catalog's
// title and text, and it requires the shared resolve layer.
func New(id rules.ID, run func(*analysis.Pass) (any, error), requires ...*analysis.Analyzer) *analysis.Analyzer {
	r := rules.MustGet(id)
	return &analysis.Analyzer{
		Name:     string(r.ID),
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

// MaxMessage is the length a diagnostic aims to stay within, in
// characters: what is wrong here and the fix, in one short sentence. The
// why is the catalog's (lockaudit explain, the rule's page, SARIF help).
// The analyzers' tests hold every message of their fixtures to it.
const MaxMessage = 160

// Through names the wrapper an Op was resolved through, for a message:
// " in unlock", " in locks.Release" (a function of another package), or
// "" for a direct call. Where the wrapper sends the command is left out:
// the message stays short, and the caller knows what it calls.
func Through(pass *analysis.Pass, op *resolve.Op) string {
	if op.Via == nil {
		return ""
	}
	fn := op.Via.Func
	if fn.Pkg() != nil && fn.Pkg() != pass.Pkg && fn.Signature().Recv() == nil {
		return " in " + fn.Pkg().Name() + "." + fn.Name()
	}
	return " in " + fn.Name()
}

// Report reports a finding of rule id at pos. Category carries the rule ID,
// which the driver, SARIF and suppressions key on.
func Report(pass *analysis.Pass, id rules.ID, pos token.Pos, format string, args ...any) {
	ReportFix(pass, id, pos, nil, format, args...)
}

// ReportFix is Report with suggested fixes. The message is escaped
// (safetext.Escape) here, where every rule's diagnostics pass: go vet and
// golangci-lint print it as it is, and it quotes source text (keys,
// literals) that may hold control characters.
func ReportFix(pass *analysis.Pass, id rules.ID, pos token.Pos, fixes []analysis.SuggestedFix, format string, args ...any) {
	pass.Report(analysis.Diagnostic{Pos: pos, Category: string(id), Message: safetext.Escape(fmt.Sprintf(format, args...)), SuggestedFixes: fixes})
}

// Fit composes a message from its cause, which is never cut, and the first
// of the fixes (longest first) that keeps it within MaxMessage, else the
// last: a long cause ("field id set once by NewLock2 and math/rand source
// seeded with time.Now") shortens the advice, never itself.
func Fit(cause string, fixes ...string) string {
	if len(fixes) == 0 {
		return cause
	}
	for _, f := range fixes {
		if utf8.RuneCountInString(cause)+utf8.RuneCountInString(f) <= MaxMessage {
			return cause + f
		}
	}
	return cause + fixes[len(fixes)-1]
}

// maxExpr is how much of an expression a message quotes.
const maxExpr = 40

// Expr renders an expression for a message (types.ExprString), clipped
// to a few dozen characters so that a long key or call leaves the message
// short.
func Expr(e ast.Expr) string { return Clip(types.ExprString(e)) }

// Key renders a key expression named in a message after "lock key" or
// "fence key": a string literal as it is ("lock:batch" with its quotes),
// anything else in backquotes, so "lock key `key`" does not read as "lock
// key key" and "lock key `\"lock:\" + id`" shows where the expression ends.
func Key(e ast.Expr) string {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return Expr(e)
	}
	return "`" + Expr(e) + "`"
}

// Clip shortens text quoted in a message to a few dozen characters,
// ending it with "…" when it was cut.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= maxExpr {
		return s
	}
	r := []rune(s)
	return string(r[:maxExpr-1]) + "…"
}
