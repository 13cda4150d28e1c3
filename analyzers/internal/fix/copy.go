package fix

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// What a fix may copy (a fix may only insert what is certainly in
// scope and means the same thing where it is inserted).

// Visible reports whether expression e, written again at pos, would mean
// the same thing: every name in it resolves at pos to the object it
// resolves to where e is written (no name is out of scope, declared later,
// or shadowed). Field and method names after a dot are not looked up.
func (c *Ctx) Visible(e ast.Expr, pos token.Pos) bool {
	in := c.In
	scope := in.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	// every reports whether every identifier under x (field names after a
	// dot included) is visible at pos.
	every := func(x ast.Node) bool {
		all := true
		ast.Inspect(x, func(m ast.Node) bool {
			if id, isID := m.(*ast.Ident); isID && !visible(in.TypesInfo, scope, id, pos) {
				all = false
			}
			return all
		})
		return all
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ok = every(n.X)
			return false
		case *ast.KeyValueExpr:
			if _, isID := n.Key.(*ast.Ident); isID {
				ok = every(n.Value)
				return false
			}
		case *ast.FuncLit:
			ok = false // a closure's own names: not worth copying
			return false
		case *ast.Ident:
			ok = visible(in.TypesInfo, scope, n, pos)
		}
		return true
	})
	return ok
}

func visible(info *types.Info, scope *types.Scope, id *ast.Ident, pos token.Pos) bool {
	obj := info.Uses[id]
	if obj == nil {
		obj = info.Defs[id]
	}
	if obj == nil {
		return id.Name == "_"
	}
	_, found := scope.LookupParent(id.Name, pos)
	if pn, ok := obj.(*types.PkgName); ok {
		// Each file has its own import names: the same name importing the
		// same package means the same thing in another file.
		fn, ok := found.(*types.PkgName)
		return ok && fn.Imported() == pn.Imported()
	}
	return found == obj
}

// Stable reports whether e, evaluated again later in the same run of the
// code, certainly gives the same value: it calls nothing but type
// conversions and the methods of time.Duration, and every variable it names
// is a parameter never assigned, or a variable of this package given its
// value once (never reassigned, incremented or taken the address of) and
// not exported (another package could change it), or a field of one of
// this package's types that is only ever set in composite literals. A suggested fix copies
// only stable expressions, so that the copy means what the original meant.
func (c *Ctx) Stable(e ast.Expr) bool {
	in := c.In
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if tv, isT := in.TypesInfo.Types[n.Fun]; isT && tv.IsType() {
				return true
			}
			sel, isSel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !isSel {
				ok = false
				return false
			}
			fn, _ := in.TypesInfo.Uses[sel.Sel].(*types.Func)
			if fn == nil || !isDurationMethod(fn) {
				ok = false
			}
		case *ast.Ident:
			switch obj := in.TypesInfo.Uses[n].(type) {
			case nil, *types.Const, *types.PkgName, *types.TypeName, *types.Func, *types.Nil, *types.Builtin:
			case *types.Var:
				ok = stableVar(in, obj)
			default:
				ok = false
			}
		}
		return ok
	})
	return ok
}

func stableVar(in *keys.Info, v *types.Var) bool {
	if v.IsField() {
		// A field of this package's type never assigned outside composite
		// literals; the selector's base is checked on its own.
		return v.Pkg() == in.Pkg && len(in.Writes(v)) == 0
	}
	if v.Pkg() != in.Pkg || (syntax.IsPkgLevel(v) && v.Exported()) {
		return false
	}
	as := in.Writes(v)
	if in.IsParam(v) {
		return len(as) == 0
	}
	if len(as) != 1 {
		return false
	}
	switch as[0].Kind {
	case syntax.Define, syntax.Zero:
		return true
	}
	return false
}

func isDurationMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && syntax.IsDuration(recv.Type())
}
