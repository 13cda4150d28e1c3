package la107

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports lock tokens that are not unique per acquisition.
var Analyzer = ruleutil.New("LA107", run, keys.Analyzer, origin.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	tr := origin.For(pass)
	for _, op := range in.Ops {
		if op.Value == nil || !op.Complete || !op.Passes(resolve.PassedValue|resolve.PassedArgv) || !takesToken(in, op) {
			continue
		}
		o := tr.Token(op.Value, op.Func)
		if o.Strength != origin.Weak {
			continue
		}
		written := ""
		if op.Via != nil {
			written = " written" + ruleutil.Through(pass, op)
		}
		ruleutil.Report(pass, "LA107", op.Pos,
			"lock token%s is not unique per acquisition: it comes from %s; draw 20 random bytes from crypto/rand for every acquire",
			written, ruleutil.Clip(o.Reason()))
	}
	return nil, nil
}

// takesToken reports an Op whose Value is the token of a lock: a lock
// acquire, or a lock library's locker built with the token its acquires
// will write (redsync's WithValue).
func takesToken(in *keys.Info, op *resolve.Op) bool {
	return in.IsLockAcquire(op) || (op.Kind == resolve.Library && op.Step == "locker")
}
