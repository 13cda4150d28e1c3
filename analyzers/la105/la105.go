package la105

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports SET IFEQ that cannot succeed: combined with NX or XX,
// or sent by a client that compresses values.
var Analyzer = ruleutil.New(rules.LA105, run)

func run(pass *analysis.Pass) (any, error) {
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || op.Via != nil || op.Name != "SET" || op.Cond != "IFEQ" {
			continue
		}
		switch {
		case op.NX || op.XX:
			other := "NX"
			if !op.NX {
				other = "XX"
			}
			ruleutil.Report(pass, rules.LA105, op.Pos,
				"SET with both IFEQ and %s is a syntax error and never runs: use IFEQ alone to extend, NX alone to acquire", other)
		case op.Compressed:
			// glide compresses the SET's value but not the IFEQ
			// comparison (2.6 rejects the command): the extend never
			// matches the token it stored.
			ruleutil.Report(pass, rules.LA105, op.Pos, "%s",
				"SET IFEQ on a client configured with compression: the stored token is compressed, the comparison is not; keep compression off for the lock client")
		}
	}
	return nil, nil
}
