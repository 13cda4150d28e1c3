package keys

import (
	"fmt"
	"go/ast"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// LockKey says why a key is a lock key.
type LockKey struct {
	Acquire *resolve.Op // the SET NX/SETNX of the same shape, when that is the reason
	Pattern string      // the lock-key pattern its text matches, when that is the reason
}

// Why renders the reason for a message: "acquired with SET NX at a.go:12",
// "its text matches the lock-key pattern `...`".
func (in *Info) Why(k LockKey) string {
	if k.Acquire != nil {
		return fmt.Sprintf("acquired with %s at %s", AcquireName(k.Acquire), in.At(k.Acquire.Pos))
	}
	return fmt.Sprintf("its text matches the lock-key pattern `%s`", k.Pattern)
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
// is acquired with SET NX/SETNX somewhere in the package, or its constant
// text (the pieces of a template, the text a one-line helper returns)
// matches a lock-key pattern.
func (in *Info) IsLockKey(e ast.Expr) (LockKey, bool) {
	s := in.ShapeOf(e)
	in.lockFacts()
	if op := in.acquired[s.Key()]; op != nil && s.Key() != "" {
		return LockKey{Acquire: op}, true
	}
	if s.Kind == Call && s.Inline != nil {
		if op := in.acquired[s.Inline.Key()]; op != nil {
			return LockKey{Acquire: op}, true
		}
	}
	if p, ok := matchShape(in.Settings.LockKey, s); ok {
		return LockKey{Pattern: p}, true
	}
	return LockKey{}, false
}

// lockFacts indexes the package's acquires and the keys that are released,
// extended or owner-checked.
func (in *Info) lockFacts() {
	in.lockOnce.Do(func() {
		in.acquired = map[string]*resolve.Op{}
		in.lockUsed = map[string]bool{}
		for _, op := range in.Ops {
			if op.Kind != resolve.Command || len(op.Keys) == 0 {
				continue
			}
			s := in.ShapeOf(op.Key())
			k := s.Key()
			if k == "" {
				continue
			}
			switch {
			case op.IsAcquire():
				if in.acquired[k] == nil {
					in.acquired[k] = op
				}
			case op.Steps()&(resolve.StepRelease|resolve.StepExtend|resolve.StepExpire) != 0 || op.IsPlainDel():
				in.lockUsed[k] = true
			}
		}
	})
}

// IsLockAcquire reports whether an op takes a lock: a library's acquire, a
// Lua script that acquires, or a SET NX/SETNX that is a lock acquire rather
// than an idempotency marker — its key matches a lock-key pattern, or the
// same key shape is released, extended or expired somewhere in the
// package, or it shares a MULTI with a fencing INCR. So `SET seen:<id> 1
// NX EX 86400` is left alone.
func (in *Info) IsLockAcquire(op *resolve.Op) bool {
	if op.Steps()&resolve.StepAcquire == 0 {
		return false
	}
	if !op.Native() {
		return true // a library or Lua acquire
	}
	if len(op.Keys) == 0 {
		return false
	}
	s := in.ShapeOf(op.Key())
	if _, ok := matchShape(in.Settings.LockKey, s); ok {
		return true
	}
	in.lockFacts()
	if k := s.Key(); k != "" && in.lockUsed[k] {
		return true
	}
	if op.Tx != nil && op.Tx.Kind == resolve.Multi {
		for _, o := range op.Tx.Ops {
			if in.IsFenceKey(o) {
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
