package resolve

import (
	"go/ast"
	"go/types"
)

// library resolves calls into the lock libraries (redsync, bsm/redislock,
// valkeylock, rueidislock) to Library Ops.
func (r *resolver) library(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn, call)
	op := r.newOp(Library, info, call, stack)
	op.Lib, op.Method, op.Step = info.client, fn.Name(), s.step // a library is its own client
	op.Args = a
	op.conn = r.rootObj(receiver(call))
	if s.keyArg > 0 && s.keyArg <= len(a) {
		op.Keys = []ast.Expr{a[s.keyArg-1]}
	}
	if s.ttlArg > 0 && s.ttlArg <= len(a) {
		op.TTLExpr = a[s.ttlArg-1]
	}
}
