package la115

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/reply"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Analyzer reports WAIT/WAITAOF replies that are dropped.
var Analyzer = ruleutil.New("LA115", run, syntax.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	x := syntax.Of(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || (op.Name != "WAIT" && op.Name != "WAITAOF") {
			continue
		}
		what := "the number of replicas that acknowledged"
		if op.Name == "WAITAOF" {
			what = "the number of local and replica AOF fsyncs that acknowledged"
		}
		switch reply.Of(x, op) {
		case reply.Discarded:
			ruleutil.Report(pass, "LA115", op.Pos,
				"reply of %s is discarded: it is %s, and a short count means the lock may exist only on the primary and is lost if it fails over now; read the count and treat fewer acknowledgements than required as not acquired",
				op.Name, what)
		case reply.ErrorOnly:
			ruleutil.Report(pass, "LA115", op.Pos,
				"only the error of %s is checked: the reply is %s, and a short count (not an error) means the lock may exist only on the primary; read the count and treat fewer acknowledgements than required as not acquired",
				op.Name, what)
		}
	}
	return nil, nil
}
