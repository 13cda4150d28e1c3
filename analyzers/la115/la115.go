package la115

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/reply"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports WAIT/WAITAOF replies that are dropped.
var Analyzer = ruleutil.New(rules.LA115, run, syntax.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	x := syntax.Of(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || (op.Name != "WAIT" && op.Name != "WAITAOF") {
			continue
		}
		switch reply.Of(x, op) {
		case reply.Discarded:
			ruleutil.Report(pass, rules.LA115, op.Pos,
				"reply of %s is discarded: read the count and treat fewer acknowledgements than required as not acquired", op.Name)
		case reply.ErrorOnly:
			ruleutil.Report(pass, rules.LA115, op.Pos,
				"only the error of %s is checked, but a short count is no error: treat fewer acknowledgements than required as not acquired", op.Name)
		}
	}
	return nil, nil
}
