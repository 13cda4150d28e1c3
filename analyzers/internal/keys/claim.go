package keys

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// LibraryClaim reports whether a lock library's acquire (op) is a
// write-once claim rather than a lock: it is called on a lock object built
// by the library in a local that never leaves the function (only its
// methods are called), the library releases by a call (not a cancel
// function), the package never releases nor extends anything of that
// library, and the key the object was built with is no lock key and says
// nothing of a lock (go-queue's RedisLock on a message digest with a
// one-hour TTL, left to expire). Such a mark is judged as a SET NX dedup
// marker is: not a lock. A lock handed to callers (an Obtain returned) is
// released elsewhere and stays a lock.
func (in *Info) LibraryClaim(op *resolve.Op) bool {
	if op.Kind != resolve.Library || op.Step != "acquire" || op.Client.Lib == nil {
		return false
	}
	if _, ok := op.Client.Lib.Lua["release"]; !ok {
		return false
	}
	if slices.ContainsFunc(in.Ops, func(o *resolve.Op) bool {
		return o.Kind == resolve.Library && o.Client == op.Client && (o.Step == "release" || o.Step == "extend")
	}) {
		return false
	}
	k := in.localLockKey(op)
	if k == nil {
		return false
	}
	if _, ok := in.IsLockKey(k); ok {
		return false
	}
	return !slices.ContainsFunc(in.identNames(k, 1), LockWord)
}

// localLockKey is the key of the lock object an acquire is called on,
// when that object is a local assigned once from the library's locker and
// used only as the receiver of method calls; nil otherwise.
func (in *Info) localLockKey(op *resolve.Op) ast.Expr {
	sel, ok := ast.Unparen(op.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := in.ObjOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || in.IsParam(v) {
		return nil
	}
	for _, u := range in.Uses(v) {
		s, ok := in.Parent(u).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if c, ok := in.Parent(s).(*ast.CallExpr); !ok || c.Fun != s {
			return nil
		}
	}
	built, ok := ast.Unparen(in.SingleValue(v)).(*ast.CallExpr)
	if !ok {
		return nil
	}
	for _, o := range in.Ops {
		if o.Call == built && o.Kind == resolve.Library && o.Client == op.Client {
			return o.Key()
		}
	}
	return nil
}
