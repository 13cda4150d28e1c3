package la111

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fence"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/region"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports non-strict fence checks in SQL written under a lock.
var Analyzer = ruleutil.New(rules.LA111, run, fence.Analyzer, settings.Analyzer)

func init() {
	settings.Declare(&Analyzer.Flags, settings.OptFenceColumn)
	settings.Declare(&Analyzer.Flags, settings.OptWriters)
}

func run(pass *analysis.Pass) (any, error) {
	in := fence.Of(pass)
	isFence := settings.Of(pass).FenceColumn
	for _, fd := range region.LockFuncs(in.Info) {
		for _, w := range in.WriterCalls(fd) {
			for _, arg := range w.Args {
				s := in.ShapeOf(arg)
				if s.Kind != keys.Const {
					continue
				}
				for _, p := range nonStrict(s.Parts[0].Text, isFence) {
					ruleutil.Report(pass, rules.LA111, w.Pos(),
						"fence check %q passed to %s is not strict, and a failover can repeat a fence: write %q",
						ruleutil.Clip(p.Text), ruleutil.Expr(w.Fun), ruleutil.Clip(p.Fix))
				}
			}
		}
	}
	return nil, nil
}
