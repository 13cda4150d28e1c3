package syntax

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// IsDuration reports time.Duration itself, also through an alias; false
// for nil and for a type declared over it.
func IsDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// ScaledDuration reads d*unit (or unit*d) where d is a time.Duration that
// is no constant and no conversion (time.Duration(n)), and unit a constant
// time.Duration equal to one of the time package's units above the
// nanosecond (time.Millisecond): d already
// counts nanoseconds, so the product is unit times too long. A local
// whose only value is a conversion (ttl := time.Duration(cfg.Millis)) is a
// count too. It returns d and the unit in nanoseconds.
func (x *Index) ScaledDuration(e ast.Expr) (ast.Expr, int64, bool) {
	info := x.TypesInfo
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL || !IsDuration(info.TypeOf(b)) {
		return nil, 0, false
	}
	for _, xy := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		d, unit := xy[0], xy[1]
		utv, ok := info.Types[unit]
		if !ok || utv.Value == nil || !IsDuration(utv.Type) {
			continue
		}
		n, exact := constant.Int64Val(constant.ToInt(utv.Value))
		if !exact || !units[n] {
			continue
		}
		dtv, ok := info.Types[d]
		if !ok || dtv.Value != nil || !IsDuration(dtv.Type) || isConversion(info, d) || x.countVar(d) {
			continue
		}
		return d, n, true
	}
	return nil, 0, false
}

// units are the time package's units above the nanosecond: a factor of
// 2 or 10 scales a duration, a unit re-counts it.
var units = map[int64]bool{1e3: true, 1e6: true, 1e9: true, 60e9: true, 3600e9: true}

// isConversion reports T(x): a count converted to a duration is a count of
// units, not a duration.
func isConversion(info *types.Info, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	tv, ok := info.Types[c.Fun]
	return ok && tv.IsType()
}

// countVar reports a local variable written only with conversions
// (ttl := time.Duration(n)), or not followable at all: either way not
// known to hold a duration.
func (x *Index) countVar(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := x.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || IsPkgLevel(v) || v.Pkg() != x.Pkg {
		return false
	}
	for _, w := range x.Writes(v) {
		if val := w.Value(); val == nil || isConversion(x.TypesInfo, val) {
			return true
		}
	}
	return false
}
