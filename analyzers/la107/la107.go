package la107

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports lock tokens that are not unique per acquisition.
var Analyzer = ruleutil.New(rules.LA107, run, keys.Analyzer, origin.Analyzer)

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
		if in.Reentrant(op) {
			// A reentrant lock's token is its owner's identity: drawn
			// once per owner, reused by that owner's re-acquires. It
			// must be unique per owner, not per acquisition.
			if o.Drawn == origin.Strong {
				continue
			}
			cause := fmt.Sprintf("reentrant lock's owner id%s is not unique per owner: it comes from %s", written, o.Reason())
			const short = "; use crypto/rand once per owner"
			if len(cause)+len(short) > ruleutil.MaxMessage && o.Once != "" {
				// Drawn once per owner is the design: what it is
				// drawn from is the fault, said first when both do
				// not fit.
				cause = fmt.Sprintf("reentrant lock's owner id%s is not unique per owner: it comes from %s", written, o.Sources().Reason())
			}
			ruleutil.Report(pass, rules.LA107, op.Pos, "%s", ruleutil.Fit(cause,
				"; draw it once per owner from crypto/rand and keep the hold count apart",
				"; draw it once per owner from crypto/rand",
				short))
			continue
		}
		ruleutil.Report(pass, rules.LA107, op.Pos, "%s", ruleutil.Fit(
			fmt.Sprintf("lock token%s is not unique per acquisition: it comes from %s", written, o.Reason()),
			"; draw 20 random bytes from crypto/rand for every acquire",
			"; draw a fresh crypto/rand token per acquire",
			"; use a fresh crypto/rand token"))
	}
	return nil, nil
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
