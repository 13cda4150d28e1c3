package la103

import (
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Analyzer reports plain-DEL releases of lock keys.
var Analyzer = ruleutil.New("LA103", run, keys.Analyzer, settings.Analyzer)

func init() {
	settings.Declare(&Analyzer.Flags, settings.OptLockKeys)
	settings.DeclareTarget(&Analyzer.Flags, "the fix releases with DELIFEQ when every target has it, else with DELEX IFEQ when every target has that")
}

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	c := fix.New(pass)
	for _, op := range in.Ops {
		if !op.IsPlainDel() || !op.Complete || in.WatchGuarded(op) {
			continue
		}
		for _, k := range op.Keys {
			lk, ok := in.IsLockKey(k)
			if !ok {
				continue
			}
			ruleutil.ReportFix(pass, "LA103", op.Pos, releaseFix(c, op),
				"plain %s of lock key %s (%s) deletes whichever client holds it: after your lease expires it releases the next holder's lock; release with DELIFEQ key token (Valkey 9.0+) or DELEX key IFEQ token (Valkey 9.2+, Redis 8.4+) and check the reply",
				op.Name, types.ExprString(k), in.Why(lk))
			break
		}
	}
	return nil, nil
}
