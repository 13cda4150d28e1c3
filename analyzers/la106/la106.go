package la106

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/rules"
)

// Analyzer reports lock acquires without a TTL.
var Analyzer = ruleutil.New(rules.LA106, run, keys.Analyzer)

func run(pass *analysis.Pass) (any, error) {
	in := keys.Of(pass)
	c := fix.New(pass)
	for _, op := range in.Ops {
		if wrongUnit(pass, in, op) {
			continue
		}
		if op.Kind != resolve.Command || !(op.Passes(resolve.PassedTTL) || judgedAtCaller(op)) {
			continue
		}
		what := ""
		switch {
		case op.Name == "SETNX":
			what = "SETNX"
			if sel, ok := ast.Unparen(op.Call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "SetNX" && (op.Via == nil || op.Via.ExpireAt == "") {
				what = "SetNX(..., 0) (sent as SETNX)"
			}
		case op.Name == "SET" && op.NX && op.TTL == resolve.NoTTL && op.Complete:
			what = "SET NX without EX/PX/EXAT/PXAT"
		default:
			continue
		}
		what += ruleutil.Through(pass, op)
		// A flag, a marker or a generic wrapper is no lock: only an
		// acquire with lock evidence is reported.
		if !in.IsLockAcquire(op) {
			continue
		}
		if op.Via != nil && op.Via.ExpireAt != "" {
			// A set-if-absent-then-expire helper: the pair is the
			// wrapper's, the lock key the caller's.
			ruleutil.Report(pass, rules.LA106, op.Pos,
				"%s, then a separate EXPIRE (%s): a crash in between leaves the lock forever; use %s",
				what, op.Via.ExpireAt, fix.AcquireAdvice)
			continue
		}
		if exp := in.AcquireExpire(op); exp != nil {
			line := in.Line(exp.Pos)
			if op.Tx != nil && op.Tx == exp.Tx && op.Tx.Kind == resolve.Multi {
				ruleutil.Report(pass, rules.LA106, op.Pos,
					"%s, then %s of the same key in the same MULTI (line %d): the %s runs even if the acquire fails; use %s",
					what, exp.Name, line, exp.Name, fix.AcquireAdvice)
				continue
			}
			ruleutil.ReportFix(pass, rules.LA106, op.Pos, expireFix(c, op, exp),
				"%s, then a separate %s of the same key (line %d): a crash in between leaves the lock forever; use %s",
				what, exp.Name, line, fix.AcquireAdvice)
			continue
		}
		if op.Name == "SETNX" {
			ruleutil.Report(pass, rules.LA106, op.Pos,
				"%s cannot set a TTL: a client that crashes leaves a lock that never expires; use %s", what, fix.AcquireAdvice)
			continue
		}
		ruleutil.Report(pass, rules.LA106, op.Pos,
			"%s: a client that crashes leaves a lock that never expires; use %s", what, fix.AcquireAdvice)
	}
	return nil, nil
}

// judgedAtCaller reports a call of a generic wrapper that leaves the TTL
// out itself but takes the key from its caller (a client library's
// SetNX(ctx, key, value)): the wrapper has no lock evidence where it is,
// so the acquire is judged here, by the caller's key and names. A wrapper
// whose own names say lock is judged where it is.
func judgedAtCaller(op *resolve.Op) bool {
	return op.Via != nil && op.Passes(resolve.PassedKey) && !keys.WrapperSaysLock(op)
}
