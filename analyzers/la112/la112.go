package la112

import (
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports commands the -target server does not have.
var Analyzer = ruleutil.New("LA112", run, settings.Analyzer)

func init() { settings.Declare(&Analyzer.Flags, settings.OptTarget) }

func run(pass *analysis.Pass) (any, error) {
	target := settings.Of(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command {
			continue
		}
		var feature rules.Feature
		var name string
		switch {
		case op.Name == "DELIFEQ":
			feature, name = rules.DELIFEQ, "DELIFEQ"
		case op.Name == "DELEX":
			feature, name = rules.DELEX, "DELEX"
		case op.Name == "SET" && op.Cond == "IFEQ":
			feature, name = rules.SetIFEQ, "SET IFEQ"
		default:
			continue
		}
		var msgs []string
		if miss := target.Lacking(feature); miss != "" {
			msgs = append(msgs, name+" needs "+rules.Requirement(feature)+", but "+miss+
				": on an older node it fails (unknown command or syntax error), typically after a failover promotes an old replica; upgrade every node that can become primary first, or raise -target once the fleet is upgraded")
		}
		if op.Name == "DELEX" && op.Cond == "" && op.Complete {
			msgs = append(msgs, "DELEX without a condition is a plain DEL on Redis (it deletes whoever holds the lock) and an error on Valkey (the condition is required): release with DELEX key IFEQ token")
		}
		if len(msgs) > 0 {
			ruleutil.Report(pass, "LA112", op.Pos, "%s", strings.Join(msgs, "; also, "))
		}
	}
	return nil, nil
}
