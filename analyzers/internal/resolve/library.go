package resolve

import (
	"go/ast"
	"go/types"
)

// library resolves calls into the lock libraries (redsync, bsm/redislock,
// valkeylock, rueidislock, go-zero's RedisLock) to Library Ops.
func (r *resolver) library(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
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
	if s.optArg > 0 && s.optArg <= len(a) {
		op.Value = r.optionToken(a[s.optArg-1:])
	}
}

// optionToken finds the token a lock library call is given in its
// options: redislock's &Options{Token: t} (or a variable holding it), or
// among redsync's options WithValue(t) or WithGenValueFunc(f) (before v4
// SetGenValueFunc(f)) — then the
// value f returns, when f is a function literal or a function of the
// package with one return statement. nil when none is visible.
func (r *resolver) optionToken(opts []ast.Expr) ast.Expr {
	for _, o := range opts {
		e, _ := r.follow(o)
		if u, ok := e.(*ast.UnaryExpr); ok {
			e, _ = r.follow(u.X)
		}
		switch x := e.(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Token" {
						return kv.Value
					}
				}
			}
		case *ast.CallExpr:
			fn := r.calleeFunc(x)
			if fn == nil || r.pkgInfoOf(fn.Pkg()) == nil || len(x.Args) != 1 {
				continue
			}
			switch fn.Name() {
			case "WithValue":
				return x.Args[0]
			case "WithGenValueFunc", "SetGenValueFunc": // SetGenValueFunc: redsync before v4
				if v := r.returnedValue(x.Args[0]); v != nil {
					return v
				}
			}
		}
	}
	return nil
}

// returnedValue is the first result of the one return statement of a
// function literal or a function of the package.
func (r *resolver) returnedValue(f ast.Expr) ast.Expr {
	var body *ast.BlockStmt
	switch x := ast.Unparen(f).(type) {
	case *ast.FuncLit:
		body = x.Body
	case *ast.Ident:
		if fn, ok := r.info.Uses[x].(*types.Func); ok && fn.Pkg() == r.pass.Pkg {
			if fd := r.x.Decl(fn); fd != nil {
				body = fd.Body
			}
		}
	}
	if body == nil {
		return nil
	}
	var ret *ast.ReturnStmt
	n := 0
	ast.Inspect(body, func(nd ast.Node) bool {
		switch s := nd.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			ret = s
			n++
		}
		return true
	})
	if n != 1 || len(ret.Results) == 0 {
		return nil
	}
	return ret.Results[0]
}
