package la109

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fence"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports fencing INCRs sent outside the acquire's MULTI.
var Analyzer = ruleutil.New(rules.LA109, run, fence.Analyzer)

func init() { settings.Declare(&Analyzer.Flags, settings.OptFenceKeys) }

func run(pass *analysis.Pass) (any, error) {
	in := fence.Of(pass)
	acquires := map[any][]*resolve.Op{}
	for _, op := range in.Ops {
		if op.Func != nil && op.IsAcquire() && len(op.Keys) > 0 {
			acquires[op.Func] = append(acquires[op.Func], op)
		}
	}
	for _, op := range in.Ops {
		if op.Func == nil || !keys.IsIncr(op) || in.Fence(op) == fence.NotFence {
			continue
		}
		acq := acquires[op.Func]
		if len(acq) == 0 || sameMulti(op, acq) {
			continue
		}
		a := nearest(op, acq)
		how := "are separate round trips"
		if op.Tx != nil && op.Tx == a.Tx {
			how = "are pipelined, not in one MULTI"
		}
		ruleutil.Report(pass, rules.LA109, op.Pos,
			"fencing %s %s and the %s at %s %s: send both in one MULTI/EXEC",
			op.Name, ruleutil.Expr(op.Key()), keys.AcquireName(a), in.At(a.Pos), how)
	}
	return nil, nil
}

// sameMulti reports whether the INCR is queued in a MULTI (or a batch that
// may be atomic) together with one of the acquires.
func sameMulti(incr *resolve.Op, acq []*resolve.Op) bool {
	if incr.Tx == nil || (incr.Tx.Kind != resolve.Multi && !incr.Tx.MaybeMulti) {
		return false
	}
	for _, a := range acq {
		if a.Tx == incr.Tx {
			return true
		}
	}
	return false
}

// nearest returns the acquire closest before the INCR, else the first after.
func nearest(incr *resolve.Op, acq []*resolve.Op) *resolve.Op {
	var best *resolve.Op
	for _, a := range acq {
		if a.Pos < incr.Pos && (best == nil || a.Pos > best.Pos) {
			best = a
		}
	}
	if best == nil {
		best = acq[0]
	}
	return best
}
