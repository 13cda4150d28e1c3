package la110

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fence"
	"github.com/lockaudit/lockaudit/analyzers/internal/region"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports protected-resource writes under a lock without a fence.
var Analyzer = ruleutil.New(rules.LA110, run, fence.Analyzer)

func init() {
	settings.Declare(&Analyzer.Flags, settings.OptWriters)
	settings.Declare(&Analyzer.Flags, settings.OptFenceKeys)
}

func run(pass *analysis.Pass) (any, error) {
	in := fence.Of(pass)
	for _, fd := range region.LockFuncs(in.Info) {
		writes := in.WriterCalls(fd)
		if len(writes) == 0 {
			continue
		}
		taint := in.Taint(fd)
		regions := region.Regions(in.Info, fd)
		for _, w := range writes {
			r, ok := region.Holding(regions, w.Pos())
			if !ok {
				continue
			}
			name := ruleutil.Expr(w.Fun)
			if !taint.Draws() && !namesFence(w.Args) {
				ruleutil.Report(pass, rules.LA110, w.Pos(),
					"write %s under the lock of %s carries no fence: INCR one in the acquire's MULTI and check it in the write (WHERE fence < $f)",
					name, in.At(r.Acquire.Pos))
				continue
			}
			if taint.CarriesAny(w.Args) || taint.Carries(w.Fun) || namesFence(w.Args) {
				continue
			}
			from := "the fence"
			if fs := taint.Fences(); len(fs) > 0 {
				from = "the fence of " + in.At(fs[0].Pos)
			}
			ruleutil.Report(pass, rules.LA110, w.Pos(),
				"write %s under the lock of %s does not pass %s: pass it and check it in the write (WHERE fence < $f)",
				name, in.At(r.Acquire.Pos), from)
		}
	}
	return nil, nil
}

// namesFence reports an argument that names a fence (a parameter fence, a
// field l.Fence, fencingToken): a fence drawn elsewhere and passed in,
// which the taint cannot follow. Such a write is not reported.
func namesFence(args []ast.Expr) bool {
	found := false
	for _, a := range args {
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "fenc") {
				found = true
			}
			return !found
		})
	}
	return found
}
