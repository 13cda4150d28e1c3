package la112

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports commands the -target server does not have.
var Analyzer = ruleutil.New(rules.LA112, run, settings.Analyzer)

func init() { settings.Declare(&Analyzer.Flags, settings.OptTarget) }

func run(pass *analysis.Pass) (any, error) {
	target := settings.Of(pass)
	for _, op := range ruleutil.Ops(pass).Ops {
		if op.Kind != resolve.Command || op.Via != nil {
			continue // a wrapper's command is reported in the wrapper
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
		if miss := target.Lacking(feature); miss != "" {
			ruleutil.Report(pass, rules.LA112, op.Pos, "%s needs %s, but %s: upgrade every node that can become primary first",
				name, rules.Requirement(feature), miss)
		}
		if op.Name == "DELEX" && op.Cond == "" && op.Complete {
			ruleutil.Report(pass, rules.LA112, op.Pos, "DELEX without IFEQ deletes whoever holds the lock (Redis) or fails (Valkey): use DELEX key IFEQ token")
		}
	}
	return nil, nil
}
