package la113

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fence"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports lock and fence keys that cannot share a slot.
var Analyzer = ruleutil.New(rules.LA113, run, fence.Analyzer)

func init() { settings.Declare(&Analyzer.Flags, settings.OptFenceKeys) }

const fix = "give both one hash tag, e.g. lock:{job} and fence:{job}"

func run(pass *analysis.Pass) (any, error) {
	in := fence.Of(pass)
	seen := map[*resolve.Tx]bool{}
	for _, op := range in.Ops {
		if tx := op.Tx; tx != nil && tx.Kind == resolve.Multi && !seen[tx] {
			seen[tx] = true
			checkTx(pass, in, tx)
		}
		if op.Kind == resolve.Command && op.Script != nil && len(op.Keys) >= 2 {
			checkScript(pass, in, op)
		}
	}
	return nil, nil
}

func checkTx(pass *analysis.Pass, in *fence.Info, tx *resolve.Tx) {
	var locks []ast.Expr
	for _, o := range tx.Ops {
		if len(o.Keys) == 0 || keys.IsIncr(o) {
			continue
		}
		if o.IsAcquire() {
			locks = append(locks, o.Key())
		} else if _, ok := in.IsLockKey(o.Key()); ok && o.Kind == resolve.Command {
			locks = append(locks, o.Key())
		}
	}
	for _, f := range tx.Ops {
		if !keys.IsIncr(f) || in.Fence(f) == fence.NotFence {
			continue
		}
		if l := apart(in, locks, f.Key()); l != nil {
			ruleutil.Report(pass, rules.LA113, f.Pos,
				"lock key %s and fence key %s in one MULTI fail with CROSSSLOT in a cluster: %s",
				ruleutil.Key(l), ruleutil.Key(f.Key()), fix)
		}
	}
}

func checkScript(pass *analysis.Pass, in *fence.Info, op *resolve.Op) {
	var locks, fences []ast.Expr
	for _, k := range op.Keys {
		if _, ok := in.IsLockKey(k); ok {
			locks = append(locks, k)
			continue
		}
		if in.MatchesFenceKey(k) {
			fences = append(fences, k)
		}
	}
	for _, f := range fences {
		if l := apart(in, locks, f); l != nil {
			ruleutil.Report(pass, rules.LA113, op.Pos,
				"lock key %s and fence key %s in one script fail with CROSSSLOT in a cluster: %s",
				ruleutil.Key(l), ruleutil.Key(f), fix)
			return
		}
	}
}

// apart returns a lock key that certainly hashes apart from the fence key.
func apart(in *fence.Info, locks []ast.Expr, f ast.Expr) ast.Expr {
	ft := in.TagOf(in.ShapeOf(f))
	for _, l := range locks {
		same, known := in.SameTag(in.TagOf(in.ShapeOf(l)), ft)
		if known && !same {
			return l
		}
	}
	return nil
}
