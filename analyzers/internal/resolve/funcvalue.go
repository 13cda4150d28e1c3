package resolve

import (
	"go/ast"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// funcValueInfo is the client of commands sent through a function value
// (APIFunc): the raw form, its reply in the call's results.
var funcValueInfo = &pkgInfo{client: &Client{Name: "function value", API: APIFunc, Replies: InResult}}

// funcValue resolves a call of a function value shaped like redigo's Do —
// func([ctx context.Context,] cmd string, args ...interface{})
// (interface{}, error), a field or parameter the project hands its
// client's Do through (magicLibs' RedisMethodDo) — whose command name is a
// constant: the raw command it names. A command that is not a constant is
// not known, and no Op.
func (r *resolver) funcValue(call *ast.CallExpr, stack []ast.Node) {
	tv, ok := r.info.Types[call.Fun]
	if !ok || !tv.IsValue() {
		return // a conversion or a builtin
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok || !doShaped(sig) {
		return
	}
	a := args(sig, call)
	if len(a) == 0 {
		return
	}
	r.rawCall(r.newOp(Command, funcValueInfo, call, stack), a, call.Ellipsis.IsValid())
}

// doShaped reports a signature shaped like redigo's Do: (string,
// ...interface{}) returning (interface{}, error), with an optional leading
// context.Context.
func doShaped(sig *types.Signature) bool {
	ps, rs := sig.Params(), sig.Results()
	n := ps.Len()
	if !sig.Variadic() || n < 2 || n > 3 || rs.Len() != 2 || (n == 3 && !syntax.IsContext(ps.At(0).Type())) {
		return false
	}
	if !syntax.IsString(ps.At(n - 2).Type()) {
		return false
	}
	rest, ok := ps.At(n - 1).Type().(*types.Slice)
	return ok && syntax.IsEmptyInterface(rest.Elem()) && syntax.IsEmptyInterface(rs.At(0).Type()) && syntax.IsError(rs.At(1).Type())
}
