package la106

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"math"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/rules"
)

// wrongUnit reports a lock acquire whose TTL the server reads in the
// wrong unit, a lock that in practice never expires: a time.Duration sent
// as a raw argument (resolve's NanosTTL: the EX/PX of a raw SET NX, the
// ARGV a script uses as its EX/PX/EXPIRE amount), or a typed helper's TTL
// that multiplies a time.Duration by a unit again (ttl*time.Millisecond).
// It returns true when it reported.
func wrongUnit(pass *analysis.Pass, in *keys.Info, op *resolve.Op) bool {
	if op.Kind != resolve.Command {
		return false
	}
	if arg, unit := op.NanosTTL(pass.TypesInfo); arg != nil {
		// A Duration known to hold a count (time.Duration(secs)) goes out
		// as that count: the unit the code meant.
		if in.Duration(arg) == syntax.DurationCount || !in.IsLockAcquire(op) {
			return false
		}
		what := "SET NX " + unit
		if op.Script != nil {
			what = fmt.Sprintf("the script's %s ARGV[%d]", unit, op.Script.Detail.TTL)
		}
		d, _ := example(pass.TypesInfo, arg)
		amount := d.Nanoseconds() // what the client sends
		seconds := float64(amount)
		if milliUnit(unit) {
			seconds /= 1000
		}
		ruleutil.Report(pass, rules.LA106, op.Pos,
			"%s%s: a time.Duration is sent as nanoseconds: %s %d for %s, a lock of %s; send %s",
			what, ruleutil.Through(pass, op), unit, amount, d, lifetime(seconds), advice(arg, unit))
		return true
	}
	if op.TTLUnit != "" || op.TTL != resolve.Expire || op.TTLExpr == nil || op.Steps()&resolve.StepAcquire == 0 || !op.Passes(resolve.PassedTTL) {
		return false
	}
	d, unit, ok := in.ScaledDuration(op.TTLExpr)
	if !ok || !in.IsLockAcquire(op) {
		return false
	}
	dur, exact := example(pass.TypesInfo, d)
	given := dur.String()
	if !exact {
		given = "a TTL of " + given // an example: the value is not a constant
	}
	effect := "becomes " + lifetime(float64(dur)*float64(unit)/1e9) + ", a lock that never expires in practice"
	if float64(dur)*float64(unit) > math.MaxInt64 {
		effect = "overflows time.Duration (it wraps)"
	}
	ruleutil.Report(pass, rules.LA106, op.Pos,
		"TTL %s%s: %s is already a time.Duration, so %s %s; pass %s",
		short(op.TTLExpr), ruleutil.Through(pass, op), short(d), given, effect, short(d))
	return true
}

// example is the duration a TTL argument holds when it is a constant
// (exact), else 10s.
func example(info *types.Info, e ast.Expr) (d time.Duration, exact bool) {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if n, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok && n > 0 {
			return time.Duration(n), true
		}
	}
	return 10 * time.Second, false
}

func milliUnit(unit string) bool { return unit == "PX" || unit == "PSETEX" || unit == "PEXPIRE" }

// short is an expression as written, or "the argument" when it is too
// long for a message.
func short(e ast.Expr) string {
	if s := types.ExprString(e); len(s) <= 32 {
		return s
	}
	return "the argument"
}

// advice is the argument the unit expects, converted from the duration.
func advice(arg ast.Expr, unit string) string {
	s := short(arg)
	if s == "the argument" {
		s = "d"
	}
	if _, ok := ast.Unparen(arg).(*ast.BinaryExpr); ok {
		s = "(" + s + ")"
	}
	if milliUnit(unit) {
		return s + ".Milliseconds()"
	}
	return "int64(" + s + " / time.Second)"
}

// lifetime says how long a TTL of the given seconds is, roughly.
func lifetime(seconds float64) string {
	const day = 24 * 3600
	switch {
	case seconds >= 365.25*day:
		return fmt.Sprintf("~%.0f years", seconds/(365.25*day))
	case seconds >= day:
		return fmt.Sprintf("~%.0f days", seconds/day)
	default:
		return fmt.Sprintf("~%.0f hours", seconds/3600)
	}
}
