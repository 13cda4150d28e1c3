package la114

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports EXPIRE-family extends of lock keys.
var Analyzer = ruleutil.New("LA114", run, keys.Analyzer)

func init() { settings.Declare(&Analyzer.Flags, settings.OptLockKeys) }

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	for _, op := range in.Ops {
		if op.Steps()&resolve.StepExpire == 0 || !op.Complete || len(op.Keys) == 0 {
			continue
		}
		lk, ok := in.IsLockKey(op.Key())
		if !ok || givesAcquireTTL(in, op) || in.WatchGuarded(op) {
			continue
		}
		ruleutil.Report(pass, "LA114", op.Pos,
			"%s of lock key %s (%s) extends whoever holds the lock now: after your lease ran out it extends the next holder's lock; extend with SET key token IFEQ token PX ttl (%s) and stop when it returns nil",
			op.Name, types.ExprString(op.Key()), in.Why(lk), rules.Requirement(rules.SetIFEQ))
	}
	return nil, nil
}

// givesAcquireTTL reports an EXPIRE that follows a TTL-less acquire of the
// same key (keys.SameKey, as LA106 decides it) in the same function:
// SETNX + EXPIRE, LA106's finding.
func givesAcquireTTL(in *keys.Info, exp *resolve.Op) bool {
	for _, op := range in.Ops {
		if op.Func != exp.Func || op.Pos >= exp.Pos || !op.IsAcquire() || len(op.Keys) == 0 {
			continue
		}
		if (op.Name == "SETNX" || op.TTL == resolve.NoTTL) && in.SameKey(op.Key(), exp.Key()) {
			return true
		}
	}
	return false
}
