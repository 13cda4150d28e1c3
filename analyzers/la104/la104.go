package la104

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports SET IFEQ extends without a TTL or with KEEPTTL.
var Analyzer = ruleutil.New(rules.LA104, run, keys.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	c := fix.New(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || op.Name != "SET" || op.Cond != "IFEQ" || !op.Passes(resolve.PassedTTL) {
			continue
		}
		switch {
		case op.TTL == resolve.NoTTL && op.Complete:
			ruleutil.ReportFix(pass, rules.LA104, op.Pos, leaseFix(c, op),
				"SET IFEQ without EX/PX/EXAT/PXAT drops the TTL, so the lock becomes permanent: give the extend its lease, SET key token IFEQ token PX ttl")
		case op.TTL == resolve.KeepTTL:
			ruleutil.ReportFix(pass, rules.LA104, op.Pos, leaseFix(c, op),
				"SET IFEQ with KEEPTTL keeps the old deadline, so the extend does nothing: give it the lease, SET key token IFEQ token PX ttl")
		}
	}
	return nil, nil
}
