package resolve

import (
	"go/ast"
	"go/types"
)

// library resolves calls into the lock libraries (redsync, bsm/redislock,
// valkeylock, rueidislock, go-zero's RedisLock) to Library Ops.
func (r *resolver) library(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn, call)
	op := r.newOp(Library, info, call, stack)
	if info.lib != nil {
		op.Client = info.lib
	}
	op.Method, op.Step = fn.Name(), s.step
	op.Args = a
	op.conn = r.rootObj(receiver(call))
	if s.keyArg > 0 && s.keyArg <= len(a) {
		op.Keys = []ast.Expr{a[s.keyArg-1]}
	}
	if s.ttlArg > 0 && s.ttlArg <= len(a) {
		op.TTLExpr = a[s.ttlArg-1]
	}
}
