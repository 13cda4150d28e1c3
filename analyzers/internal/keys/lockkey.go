package keys

import (
	"go/ast"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// LockKey says why a key is a lock key.
type LockKey struct {
	Acquire *resolve.Op // the SET NX/SETNX of the same shape, when that is the reason
	Pattern string      // the lock-key pattern its text matches, when that is the reason
	Name    string      // a name around the step that says lock (LockKeyAt), when that is the reason
}

// Why renders the reason for a message, short: "SET NX at a.go:12",
// "matches `...`".
func (in *Info) Why(k LockKey) string {
	switch {
	case k.Acquire != nil && k.Acquire.Script != nil && k.Acquire.Steps()&resolve.StepAcquire == 0:
		return "Lua EXISTS-guarded SET at " + in.At(k.Acquire.Pos)
	case k.Acquire != nil && k.Acquire.Script != nil:
		return "Lua SET NX at " + in.At(k.Acquire.Pos)
	case k.Acquire != nil:
		return AcquireName(k.Acquire) + " at " + in.At(k.Acquire.Pos)
	case k.Name != "":
		return "named " + k.Name
	}
	return "matches `" + k.Pattern + "`"
}

// AcquireName names an acquire (op.IsAcquire) for a message: "SETNX" or
// "SET NX".
func AcquireName(op *resolve.Op) string {
	if op.Name == "SETNX" {
		return "SETNX"
	}
	return "SET NX"
}

// IsLockKey reports whether a key expression is a lock key: the same shape
// is taken by a lock acquire in the package (a SET NX/SETNX with lock
// evidence, IsLockAcquire, or a Lua script's SET NX on that key), or its constant text (the pieces of a
// template, the text a one-line helper returns) matches a lock-key
// pattern.
func (in *Info) IsLockKey(e ast.Expr) (LockKey, bool) {
	s := in.ShapeOf(e)
	if op := in.lockAcquireOf(s.Key()); op != nil {
		return LockKey{Acquire: op}, true
	}
	if s.Kind == Call && s.Inline != nil {
		if op := in.lockAcquireOf(s.Inline.Key()); op != nil {
			return LockKey{Acquire: op}, true
		}
	}
	if p, ok := matchShape(in.Settings.LockKey, s); ok {
		return LockKey{Pattern: p}, true
	}
	return LockKey{}, false
}

// LockKeyAt reports whether key k of a delete or an expire (op) is a lock
// key: IsLockKey, or op follows an owner check of the key in the same
// function (CheckedBefore: a GET whose reply is compared with a token)
// and a name around it says lock (a release helper whose key is a
// parameter: func unlock(key, token string)).
func (in *Info) LockKeyAt(op *resolve.Op, k ast.Expr) (LockKey, bool) {
	if lk, ok := in.IsLockKey(k); ok {
		if lk.Acquire == nil || !in.callersKey(op, lk.Acquire, k) {
			return lk, true
		}
		// A key builder shared by a lock helper and generic helpers
		// (serialKey(key) in Lock and in a cache's Del): the shape is
		// evidence only where the step's own names say lock (Unlock);
		// elsewhere the key is the caller's, judged at each call.
		if _, ok := in.lockName(op, k); ok || stepContext(op) {
			return lk, true
		}
		return LockKey{}, false
	}
	if in.CheckedBefore(op) == nil {
		return LockKey{}, false
	}
	if name, ok := in.lockName(op, k); ok {
		return LockKey{Name: name}, true
	}
	return LockKey{}, false
}

// callersKey reports whether step op's key k is its caller's key, only
// decorated: every hole of k's shape (a template's holes, a key helper's
// arguments) is a constant or a parameter of op's function, at least one
// a parameter, the acquire acq that makes the shape a lock key is in
// another function declaration, and its text matches no lock-key pattern.
// Such a key family says nothing about this step: which
// key it is depends on who calls it.
func (in *Info) callersKey(op, acq *resolve.Op, k ast.Expr) bool {
	s := in.ShapeOf(k)
	if op.Func == nil || acq.Func == op.Func {
		return false
	}
	if _, ok := matchShape(in.Settings.LockKey, s); ok {
		return false // its text says lock wherever it is
	}
	hs := holes(s)
	if len(hs) == 0 {
		return false
	}
	params := false
	for _, h := range hs {
		if tv, ok := in.TypesInfo.Types[h]; ok && tv.Value != nil {
			continue
		}
		if !in.isParam(op, h) {
			return false
		}
		params = true
	}
	return params
}

// stepContext reports whether the function a step is in is named for a
// lock step: release, renew, extend (LockWord covers unlock).
func stepContext(op *resolve.Op) bool {
	if op.Func == nil {
		return false
	}
	names := []string{op.Func.Name.Name}
	if op.Func.Recv != nil && len(op.Func.Recv.List) > 0 {
		names = append(names, syntax.RecvTypeName(op.Func.Recv.List[0].Type))
	}
	for _, n := range names {
		for _, w := range words(n) {
			switch w {
			case "release", "releases", "renew", "renews", "extend", "extends":
				return true
			}
		}
	}
	return false
}

// isParam reports whether e is (following locals assigned once) a
// parameter of the function or function literal op is in.
func (in *Info) isParam(op *resolve.Op, e ast.Expr) bool {
	for range 8 {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := in.ObjOf(id).(*types.Var)
		if !ok {
			return false
		}
		for _, ft := range []*ast.FuncType{funcType(op.Func), funcType(op.Lit)} {
			if ft == nil || ft.Params == nil {
				continue
			}
			for _, f := range ft.Params.List {
				for _, n := range f.Names {
					if in.ObjOf(n) == v {
						return true
					}
				}
			}
		}
		val := in.SingleValue(v)
		if val == nil {
			return false
		}
		e = val
	}
	return false
}

func funcType(n ast.Node) *ast.FuncType {
	switch f := n.(type) {
	case *ast.FuncDecl:
		if f != nil {
			return f.Type
		}
	case *ast.FuncLit:
		if f != nil {
			return f.Type
		}
	}
	return nil
}

// lockAcquireOf returns the first native acquire of a shape key that takes
// a lock, or nil.
func (in *Info) lockAcquireOf(key string) *resolve.Op {
	if key == "" {
		return nil
	}
	in.lockFacts()
	for _, op := range in.acquired[key] {
		if in.IsLockAcquire(op) {
			return op
		}
	}
	return nil
}

// stepKey is the key an Op's lock step works on: for a script, the KEYS
// entry its first lock step uses (lua.Detail.Key), else the first key.
func stepKey(op *resolve.Op) ast.Expr {
	if sc := op.Script; sc != nil && sc.Detail.Key > 0 && sc.Detail.Key <= len(op.Keys) {
		return op.Keys[sc.Detail.Key-1]
	}
	return op.Key()
}

// AcquireExpire returns the EXPIRE-family command that completes a
// TTL-less SET NX or SETNX (acq) — the pair LA106 reports — or nil: the
// first one of the same key (SameKey) after it in the same function (not
// in another function literal, such as a goroutine), and not inside a loop
// that the acquire is outside of: an EXPIRE repeated in a loop renews the
// lock (LA114's), it does not complete the acquire.
func (in *Info) AcquireExpire(acq *resolve.Op) *resolve.Op {
	if acq.Func == nil || acq.Key() == nil || !acq.IsAcquire() || (acq.Name != "SETNX" && acq.TTL != resolve.NoTTL) {
		return nil
	}
	for _, op := range in.Ops {
		if op.Pos <= acq.Pos || op.Func != acq.Func || op.Lit != acq.Lit || op.Steps()&resolve.StepExpire == 0 || op.Key() == nil {
			continue
		}
		if in.SameKey(acq.Key(), op.Key()) && !loopApart(op, acq) {
			return op
		}
	}
	return nil
}

// CompletesAcquire reports whether an EXPIRE is the one that completes a
// TTL-less acquire (AcquireExpire).
func (in *Info) CompletesAcquire(exp *resolve.Op) bool {
	in.completeOnce.Do(func() {
		in.completing = map[*resolve.Op]bool{}
		for _, op := range in.Ops {
			if e := in.AcquireExpire(op); e != nil {
				in.completing[e] = true
			}
		}
	})
	return in.completing[exp]
}

// loopApart reports whether op is inside a loop that does not also hold acq.
func loopApart(op, acq *resolve.Op) bool {
	for _, n := range op.Stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if acq.Pos < n.Pos() || acq.Pos >= n.End() {
				return true
			}
		}
	}
	return false
}

// IsIncr reports whether op is an INCR or INCRBY of a key: a counter that
// may be a fence.
func IsIncr(op *resolve.Op) bool {
	return op.Kind == resolve.Command && (op.Name == "INCR" || op.Name == "INCRBY") && len(op.Keys) > 0
}

// IsFenceKey reports whether op is an INCR/INCRBY of a fence key
// (MatchesFenceKey).
func (in *Info) IsFenceKey(op *resolve.Op) bool {
	return IsIncr(op) && in.MatchesFenceKey(op.Key())
}

// MatchesFenceKey reports whether a key expression's constant text (the
// pieces of a template, the text a one-line helper returns) matches a
// fence-key pattern.
func (in *Info) MatchesFenceKey(e ast.Expr) bool {
	_, ok := matchShape(in.Settings.FenceKey, in.ShapeOf(e))
	return ok
}

// WatchGuarded reports an op queued in a MULTI after a WATCH, or after a
// GET of the same key, in the same function: the optimistic
// compare-and-delete (or compare-and-extend) that checks the owner without
// Lua.
func (in *Info) WatchGuarded(op *resolve.Op) bool {
	if op.Tx == nil || op.Tx.Kind != resolve.Multi || op.Func == nil || len(op.Keys) == 0 {
		return false
	}
	key := in.ShapeOf(op.Key())
	for _, o := range in.Ops {
		if o.Func != op.Func || o.Pos >= op.Pos || o.Kind != resolve.Command {
			continue
		}
		if o.Name == "WATCH" || (o.Name == "GET" && len(o.Keys) > 0 && in.ShapeOf(o.Key()).Same(key)) {
			return true
		}
	}
	return false
}
