package flow

import (
	"fmt"
	"go/ast"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
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
			case IsRelease(op) || IsExtend(op) || IsExpire(op) || IsPlainDel(op):
				in.lockUsed[k] = true
			}
		}
	})
}

// IsLockAcquire reports whether a SET NX/SETNX is a lock acquire rather
// than an idempotency marker: its key matches a lock-key pattern, or the
// same key shape is released, extended or expired somewhere in the
// package, or it shares a MULTI with a fencing INCR. LA107 and LA110 only
// look at lock acquires, so `SET seen:<id> 1 NX EX 86400` is left alone.
func (in *Info) IsLockAcquire(op *resolve.Op) bool {
	if !op.IsAcquire() || len(op.Keys) == 0 {
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

// ScriptStep is what the Lua script an op runs does (resolve classified it);
// 0 when the op runs no visible script.
func ScriptStep(op *resolve.Op) lua.Step {
	if op.Kind != resolve.Command || op.Script == nil {
		return 0
	}
	return op.Script.Steps
}

// IsRelease reports whether a command op releases a lock with an owner
// check: DELIFEQ, DELEX with a condition, or a Lua compare-and-delete. (A
// plain DEL is not one, see IsPlainDel; nor is a DELEX without a condition,
// which LA112 reports.)
func IsRelease(op *resolve.Op) bool {
	if op.Kind != resolve.Command {
		return false
	}
	switch op.Name {
	case "DELIFEQ":
		return true
	case "DELEX":
		return op.Cond != ""
	}
	return ScriptStep(op)&lua.Release != 0
}

// IsExtend reports whether a command op extends a lock with an owner check:
// SET IFEQ, or a Lua compare-and-extend.
func IsExtend(op *resolve.Op) bool {
	return IsSetIFEQ(op) || ScriptStep(op)&lua.Extend != 0
}

// IsSetIFEQ reports whether op is a SET IFEQ, the native compare-and-extend.
func IsSetIFEQ(op *resolve.Op) bool {
	return op.Kind == resolve.Command && op.Name == "SET" && op.Cond == "IFEQ"
}

// IsPlainDel reports whether op deletes keys without an owner check.
func IsPlainDel(op *resolve.Op) bool {
	return op.Kind == resolve.Command && (op.Name == "DEL" || op.Name == "UNLINK" || op.Name == "GETDEL")
}

// IsExpire reports whether op is an EXPIRE-family command.
func IsExpire(op *resolve.Op) bool {
	if op.Kind != resolve.Command {
		return false
	}
	switch op.Name {
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		return true
	}
	return false
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
