package la107

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports lock tokens that are not unique per acquisition.
var Analyzer = ruleutil.New("LA107", run, keys.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	for _, op := range in.Ops {
		if op.Value == nil || !op.Complete || !in.IsLockAcquire(op) {
			continue
		}
		o := origin.Of(in.Index, op.Value)
		if o.Strength != origin.Weak {
			continue
		}
		ruleutil.Report(pass, "LA107", op.Pos,
			"lock token is not unique per acquisition: it comes from %s; draw 20 random bytes from crypto/rand for every acquire",
			ruleutil.Clip(o.Reason()))
	}
	return nil, nil
}
