package flow

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// Helpers for suggested fixes (a fix may only insert what is certainly in
// scope and means the same thing where it is inserted).

// AcquireOf returns the SET NX/SETNX of op's key: the last one before op in
// the same function with the very same key (SameKey), else the first
// acquire of the same key shape in the package, else nil.
func (in *Info) AcquireOf(op *resolve.Op) *resolve.Op {
	if len(op.Keys) == 0 {
		return nil
	}
	var best *resolve.Op
	for _, a := range in.Ops {
		if a.IsAcquire() && len(a.Keys) > 0 && a.Func == op.Func && op.Func != nil && a.Pos < op.Pos && in.SameKey(a.Key(), op.Key()) {
			best = a
		}
	}
	if best != nil {
		return best
	}
	in.lockFacts()
	return in.acquired[in.ShapeOf(op.Key()).Key()]
}

// Visible reports whether expression e, written again at pos, would mean
// the same thing: every name in it resolves at pos to the object it
// resolves to where e is written (no name is out of scope, declared later,
// or shadowed). Field and method names after a dot are not looked up.
func (in *Info) Visible(e ast.Expr, pos token.Pos) bool {
	scope := in.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, isID := m.(*ast.Ident); isID && !in.visible(scope, id, pos) {
					ok = false
				}
				return ok
			})
			return false
		case *ast.KeyValueExpr:
			if _, isID := n.Key.(*ast.Ident); isID {
				ast.Inspect(n.Value, func(m ast.Node) bool {
					if id, isID := m.(*ast.Ident); isID && !in.visible(scope, id, pos) {
						ok = false
					}
					return ok
				})
				return false
			}
		case *ast.FuncLit:
			ok = false // a closure's own names: not worth copying
			return false
		case *ast.Ident:
			if !in.visible(scope, n, pos) {
				ok = false
			}
		}
		return true
	})
	return ok
}

func (in *Info) visible(scope *types.Scope, id *ast.Ident, pos token.Pos) bool {
	obj := in.TypesInfo.Uses[id]
	if obj == nil {
		obj = in.TypesInfo.Defs[id]
	}
	if obj == nil {
		return id.Name == "_"
	}
	_, found := scope.LookupParent(id.Name, pos)
	return found == obj
}
