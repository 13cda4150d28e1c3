package resolve

import (
	"go/ast"
	"go/types"
)

// redigo resolves redigo's raw commands (Conn.Do/Send, DoContext,
// DoWithTimeout) and scripts.
func (r *resolver) redigo(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
	spread := call.Ellipsis.IsValid()
	switch s.h {
	case hRgDo:
		// Do(name, args...), Send(...), DoContext(ctx, name, ...),
		// DoWithTimeout(timeout, name, ...)
		if fn.Name() == "DoWithTimeout" && len(a) > 0 {
			a = a[1:]
		}
		op := r.newOp(Command, info, call, stack)
		op.conn = r.rootObj(receiver(call))
		r.rawCall(op, a, spread)
	case hRgDoFunc:
		// redis.DoContext(c, ctx, name, args...), redis.DoWithTimeout(c, timeout, name, args...)
		if len(call.Args) < 3 {
			return
		}
		op := r.newOp(Command, info, call, stack)
		op.conn = r.rootObj(call.Args[0])
		r.rawCall(op, call.Args[2:], spread)
	case hRgScriptRun:
		// (*Script).Do(c, keysAndArgs...), DoContext(ctx, c, ...), Send, SendHash
		if len(a) == 0 {
			return
		}
		op := r.newOp(Command, info, call, stack)
		op.Name = s.cmd
		op.conn = r.rootObj(a[0])
		op.Args = a[1:]
		r.runs = append(r.runs, scriptRun{op: op, recv: receiver(call), split: true, rest: a[1:], spread: spread})
	}
}
