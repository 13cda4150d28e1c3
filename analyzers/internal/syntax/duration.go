package syntax

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// IsDuration reports time.Duration itself, also through an alias; false
// for nil and for a type declared over it.
func IsDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// DurationKind is what a time.Duration value is known to hold. Code in the
// wild keeps both in the type: real durations (8*time.Second) and counts
// of some unit (time.Duration(cfg.TTL), then ttl*time.Second).
type DurationKind int

const (
	DurationUnknown DurationKind = iota // not followable: a parameter, a field set elsewhere
	DurationReal                        // nanoseconds: a unit product, a constant of a microsecond or more
	DurationCount                       // a count: a conversion T(n), a constant under a microsecond
)

// Duration says what a time.Duration expression holds, following local
// variables and the package's own struct fields through every write it can
// see (all writes must agree). A parameter is unknown: its callers decide.
func (x *Index) Duration(e ast.Expr) DurationKind { return x.duration(e, 3) }

func (x *Index) duration(e ast.Expr, depth int) DurationKind {
	info := x.TypesInfo
	e = ast.Unparen(e)
	tv, ok := info.Types[e]
	if !ok || !IsDuration(tv.Type) || depth == 0 {
		return DurationUnknown
	}
	if tv.Value != nil {
		if n, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact && n >= 1e3 {
			return DurationReal
		}
		return DurationCount
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		if isConversion(info, e) {
			return DurationCount
		}
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" {
			switch fn.Name() {
			case "ParseDuration", "Since", "Until":
				return DurationReal
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.MUL && (unitOf(info, e.X) != 0 || unitOf(info, e.Y) != 0) {
			return DurationReal
		}
	case *ast.Ident, *ast.SelectorExpr:
		return x.varDuration(e, depth)
	}
	return DurationUnknown
}

// varDuration follows a local variable or a field of the package's own
// struct through every write it can see.
func (x *Index) varDuration(e ast.Expr, depth int) DurationKind {
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	v, ok := x.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() != x.Pkg || x.AddrTaken(v) || (!v.IsField() && (IsPkgLevel(v) && v.Exported() || isParam(v))) {
		return DurationUnknown
	}
	ws := x.Writes(v)
	if v.IsField() {
		ws = append(x.FieldInits(v), ws...)
	}
	kind := DurationUnknown
	for i, w := range ws {
		val := w.Value()
		if val == nil {
			return DurationUnknown
		}
		k := x.duration(val, depth-1)
		if k == DurationUnknown || (i > 0 && k != kind) {
			return DurationUnknown
		}
		kind = k
	}
	return kind
}

// isParam reports a function's parameter or result: its value comes from
// the callers.
func isParam(v *types.Var) bool {
	return v.Kind() == types.ParamVar || v.Kind() == types.RecvVar || v.Kind() == types.ResultVar
}

// unitOf is the nanoseconds of a constant time.Duration equal to one of
// the time package's units above the nanosecond, 0 for anything else.
func unitOf(info *types.Info, e ast.Expr) int64 {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || !IsDuration(tv.Type) {
		return 0
	}
	if n, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact && units[n] {
		return n
	}
	return 0
}

// ScaledDuration reads d*unit (or unit*d) where d is a time.Duration known
// to hold a real duration (Duration) and unit a constant time.Duration
// equal to one of the time package's units above the nanosecond
// (time.Millisecond): d already counts nanoseconds, so the product is unit
// times too long. A d that holds a count (time.Duration(n)*time.Second) or
// that cannot be followed (a parameter: ttl*time.Second is how many callers
// pass seconds) is not read. It returns d and the unit in nanoseconds.
func (x *Index) ScaledDuration(e ast.Expr) (ast.Expr, int64, bool) {
	info := x.TypesInfo
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL || !IsDuration(info.TypeOf(b)) {
		return nil, 0, false
	}
	for _, xy := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		d, n := xy[0], unitOf(info, xy[1])
		if n == 0 || x.Duration(d) != DurationReal {
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
