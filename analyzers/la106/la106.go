package la106

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
)

// Analyzer reports lock acquires without a TTL.
var Analyzer = ruleutil.New("LA106", run, keys.Analyzer)

const advice = "acquire and set the lease in one command: SET key token NX PX ttl"

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	c := fix.New(pass)
	for _, op := range in.Ops {
		if op.Kind != resolve.Command {
			continue
		}
		what := ""
		switch {
		case op.Name == "SETNX":
			what = "SETNX"
			if sel, ok := ast.Unparen(op.Call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "SetNX" {
				what = "SetNX with expiration 0 (this client sends the legacy SETNX)"
			}
		case op.Name == "SET" && op.NX && op.TTL == resolve.NoTTL && op.Complete:
			what = "SET NX without EX/PX/EXAT/PXAT"
		default:
			continue
		}
		if exp := laterExpire(in, op); exp != nil {
			line := pass.Fset.Position(exp.Pos).Line
			if op.Tx != nil && op.Tx == exp.Tx && op.Tx.Kind == resolve.Multi {
				ruleutil.Report(pass, "LA106", op.Pos,
					"%s, then %s of the same key in the same MULTI (line %d): the %s runs even when the acquire fails and moves the current holder's deadline; %s",
					what, exp.Name, line, exp.Name, advice)
				continue
			}
			ruleutil.ReportFix(pass, "LA106", op.Pos, expireFix(c, op, exp),
				"%s, then a separate %s of the same key (line %d): a client that crashes between the two commands leaves a lock that never expires; %s",
				what, exp.Name, line, advice)
			continue
		}
		if op.Name == "SETNX" {
			ruleutil.Report(pass, "LA106", op.Pos,
				"%s cannot set a TTL: a client that crashes before the release leaves a lock that never expires; %s", what, advice)
			continue
		}
		ruleutil.Report(pass, "LA106", op.Pos,
			"%s: a client that crashes before the release leaves a lock that never expires; %s", what, advice)
	}
	return nil, nil
}

// laterExpire finds an EXPIRE-family command of the acquire's key sent
// after it in the same function.
func laterExpire(in *keys.Info, acq *resolve.Op) *resolve.Op {
	if acq.Func == nil || acq.Key() == nil {
		return nil
	}
	for _, op := range in.Ops {
		if op.Pos <= acq.Pos || op.Func != acq.Func || op.Steps()&resolve.StepExpire == 0 || op.Key() == nil {
			continue
		}
		if in.SameKey(acq.Key(), op.Key()) {
			return op
		}
	}
	return nil
}
