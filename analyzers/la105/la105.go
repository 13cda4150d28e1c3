package la105

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports SET IFEQ combined with NX or XX.
var Analyzer = ruleutil.New("LA105", run)

func run(pass *analysis.Pass) (any, error) {
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || op.Via != nil || op.Name != "SET" || op.Cond != "IFEQ" || !(op.NX || op.XX) {
			continue
		}
		other := "NX"
		if !op.NX {
			other = "XX"
		}
		ruleutil.Report(pass, "LA105", op.Pos,
			"SET with both IFEQ and %s is a syntax error and never runs: use IFEQ alone to extend, NX alone to acquire", other)
	}
	return nil, nil
}
