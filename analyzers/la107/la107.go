package la107

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports lock tokens that are not unique per acquisition.
var Analyzer = ruleutil.New(rules.LA107, run, keys.Analyzer, origin.Analyzer, syntax.Analyzer)

func init() { Analyzer.FactTypes = []analysis.Fact{new(TokenParam)} }

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	tr := origin.For(pass)
	luaConstants(pass, in)
	// A local token written by several acquires (a lease that re-runs its
	// acquire with the same mark to renew) is one token, drawn once:
	// reported at the first.
	reported := map[types.Object]bool{}
	ops := slices.Clone(in.Ops)
	slices.SortStableFunc(ops, func(a, b *resolve.Op) int { return cmp.Compare(a.Pos, b.Pos) })
	for _, op := range ops {
		if op.Value == nil || !op.Complete || !op.Passes(resolve.PassedValue|resolve.PassedArgv) || !takesToken(in, op) {
			continue
		}
		o := tr.Token(op.Value, op.Func)
		exportStored(pass, tr.StoredParams(op.Value, op.Func), in.Reentrant(op))
		if o.Strength != origin.Weak {
			continue
		}
		if v := localVar(pass, op.Value); v != nil {
			if reported[v] {
				continue
			}
			reported[v] = true
		}
		written := ""
		if op.Via != nil {
			written = " written" + ruleutil.Through(pass, op)
		}
		report(pass, op.Pos, o, written, in.Reentrant(op))
	}
	passedToConstructors(pass, tr)
	return nil, nil
}

// The advice of each message, longest first (ruleutil.Fit keeps the
// longest that fits; the last is the shortest).
var (
	perAcquire = []string{
		"; draw 20 random bytes from crypto/rand for every acquire",
		"; draw a fresh crypto/rand token per acquire",
		"; use a fresh crypto/rand token",
	}
	perOwner = []string{
		"; draw it once per owner from crypto/rand and keep the hold count apart",
		"; draw it once per owner from crypto/rand",
		"; use crypto/rand once per owner",
	}
)

// report reports a weak token o written at pos (written names the
// wrapper or constructor it goes through).
func report(pass *analysis.Pass, pos token.Pos, o origin.Origin, written string, reentrant bool) {
	what, advice := "lock token"+written+" is not unique per acquisition: it comes from ", perAcquire
	if reentrant {
		// A reentrant lock's token is its owner's identity: drawn
		// once per owner, reused by that owner's re-acquires. It
		// must be unique per owner, not per acquisition.
		if o.Drawn == origin.Strong {
			return
		}
		what, advice = "reentrant lock's owner id"+written+" is not unique per owner: it comes from ", perOwner
	}
	ruleutil.Report(pass, rules.LA107, pos, "%s", ruleutil.Fit(cause(what, o, advice[len(advice)-1]), advice...))
}

// cause is what+o's reasons, without the reasons that say a value is
// drawn once (a field a constructor sets) when the whole and the shortest
// advice would not fit: what the value is drawn from is the fault then.
func cause(what string, o origin.Origin, shortest string) string {
	c := what + o.Reason()
	if len(o.Once) > 0 && utf8.RuneCountInString(c+shortest) > ruleutil.MaxMessage {
		if s := o.Sources(); len(s.Reasons) > 0 {
			c = what + s.Reason()
		}
	}
	return c
}

// TokenParam is the fact of an exported lock constructor whose parameter
// Index its lock's acquires write as the token, from a field only
// constructors set (New(client, key, value) { return &Lock{value:
// value} }): nothing where the lock is says what the token is; each
// caller is judged by what it passes.
type TokenParam struct {
	Index     int
	Reentrant bool // the token is a reentrant lock's owner id
}

// AFact makes TokenParam a go/analysis fact.
func (*TokenParam) AFact() {}

func (f *TokenParam) String() string { return fmt.Sprintf("token parameter %d", f.Index) }

// exportStored exports TokenParam for the exported constructors whose
// parameters an acquire's token is stored from.
func exportStored(pass *analysis.Pass, params []origin.Param, reentrant bool) {
	for _, p := range params {
		if p.Func.Exported() && p.Func.Signature().Recv() == nil {
			pass.ExportObjectFact(p.Func, &TokenParam{Index: p.Index, Reentrant: reentrant})
		}
	}
}

// passedToConstructors reports the calls of other packages' lock
// constructors (TokenParam) that pass a weak token, traced through the
// calling function's locals and, for an unexported function, through
// what its callers here pass (origin.Tracer.Passed).
func passedToConstructors(pass *analysis.Pass, tr *origin.Tracer) {
	if origin.InGOROOT(pass) {
		return // vet's passes over the standard library: no lock code
	}
	facts := importedTokenParams(pass)
	if len(facts) == 0 {
		return // most packages: no imported constructor takes a token
	}
	x := syntax.Of(pass)
	for n := range x.Inspector().PreorderSeq((*ast.CallExpr)(nil)) {
		call := n.(*ast.CallExpr)
		fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		f := facts[fn]
		if f == nil || f.Index >= len(call.Args) || call.Ellipsis.IsValid() {
			continue
		}
		fd := x.FuncOf(call)
		if o := tr.Passed(call.Args[f.Index], fd); o.Strength == origin.Weak {
			report(pass, call.Pos(), o, " passed to "+fn.Pkg().Name()+"."+fn.Name(), f.Reentrant)
		}
	}
}

// importedTokenParams returns the TokenParam facts of the constructors of
// the packages pass imports directly (a call names only those), by
// function. Nothing in most packages, which then skip the walk of every
// call (vet runs LA107 on every dependency, for its facts).
func importedTokenParams(pass *analysis.Pass) map[*types.Func]*TokenParam {
	imported := map[*types.Package]bool{}
	for _, imp := range pass.Pkg.Imports() {
		imported[imp] = true
	}
	var out map[*types.Func]*TokenParam
	for _, of := range pass.AllObjectFacts() {
		fn, ok := of.Object.(*types.Func)
		f, isParam := of.Fact.(*TokenParam)
		if !ok || !isParam || fn.Pkg() == nil || !imported[fn.Pkg()] {
			continue
		}
		if out == nil {
			out = map[*types.Func]*TokenParam{}
		}
		out[fn] = f
	}
	return out
}

// luaConstants reports scripted acquires whose value is a literal of the
// Lua text (SET KEYS[1] '1' NX EX 60): every run writes the same value.
// Only where the claim is held as a lock (keys.HeldScript: a name says
// lock, or the package frees or renews the key), since a mark left to
// expire is compared by no release; a guarded set (EXISTS == 0 then SET
// '1' and PEXPIRE) only where it is a lock's acquire (keys.GuardedAcquire).
// Reported once, where the text is (the script's definition or its EVAL),
// as LA101 does.
func luaConstants(pass *analysis.Pass, in *keys.Info) {
	seen := map[token.Pos]bool{}
	for _, op := range in.Ops {
		sc := op.Script
		if sc == nil || sc.Foreign || seen[sc.Pos] || !(op.Kind == resolve.ScriptDef || sc.Inline) {
			continue
		}
		seen[sc.Pos] = true
		acquire := sc.Steps&lua.Acquire != 0
		if !sc.Detail.Const || acquire && !in.HeldScript(sc) || !acquire && !in.GuardedAcquire(sc) {
			continue
		}
		where := ""
		if sc.Source != "" {
			where = fmt.Sprintf(" (%s:%d)", sc.Source, max(1, sc.Detail.Line(sc.Text)))
		}
		ruleutil.Report(pass, rules.LA107, sc.Pos, "%s", ruleutil.Fit(
			fmt.Sprintf("lock token is not unique per acquisition: the Lua acquire%s writes the constant %s", where, ruleutil.Clip(strconv.Quote(sc.Detail.ConstText))),
			"; pass a fresh crypto/rand token per acquire as ARGV",
			"; pass a crypto/rand token as ARGV"))
	}
}

// localVar is the local variable an expression names, or nil.
func localVar(pass *analysis.Pass, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == pass.Pkg.Scope() {
		return nil
	}
	return v
}

// takesToken reports an Op whose Value is the token of a lock: a lock
// acquire, or a lock library's locker built with the token its acquires
// will write (redsync's WithValue).
func takesToken(in *keys.Info, op *resolve.Op) bool {
	return in.IsLockAcquire(op) || (op.Kind == resolve.Library && op.Step == "locker")
}
