package la115

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports WAIT/WAITAOF replies that are dropped.
var Analyzer = ruleutil.New("LA115", run, flow.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	in := flow.Of(pass)
	for _, op := range in.Ops {
		if op.Kind != resolve.Command || (op.Name != "WAIT" && op.Name != "WAITAOF") {
			continue
		}
		what := "the number of replicas that acknowledged"
		if op.Name == "WAITAOF" {
			what = "the number of local and replica AOF fsyncs that acknowledged"
		}
		switch in.ReplyUse(op) {
		case flow.Discarded:
			ruleutil.Report(pass, "LA115", op.Pos,
				"reply of %s is discarded: it is %s, and a short count means the lock may exist only on the primary and is lost if it fails over now; read the count and treat fewer acknowledgements than required as not acquired",
				op.Name, what)
		case flow.ErrorOnly:
			ruleutil.Report(pass, "LA115", op.Pos,
				"only the error of %s is checked: the reply is %s, and a short count (not an error) means the lock may exist only on the primary; read the count and treat fewer acknowledgements than required as not acquired",
				op.Name, what)
		}
	}
	return nil, nil
}
