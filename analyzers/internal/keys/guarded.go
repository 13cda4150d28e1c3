package keys

import (
	"go/ast"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// A guarded set is a Lua set-if-absent without NX (lua.Detail.Guarded:
// EXISTS == 0 then SET and PEXPIRE). A Redisson-style mutex takes its lock
// that way, and a cache fills an entry the same way: the text cannot tell
// them apart, so the lock evidence for a guarded set comes from the Go
// side only.

// GuardedEvidence says whether a run of a guarded-set script (op) takes a
// lock: the key it sets matches a lock-key pattern, or the same key shape
// has an owner-checked step or goes to a lock library, or the package
// deletes or expires that key shape elsewhere (a DEL or an EXPIRE, native
// or in Lua) and a name around the run or around that step says lock (a
// Mutex's TryLock and Unlock). A cache's fill and its invalidation have
// neither.
func (in *Info) GuardedEvidence(op *resolve.Op) (Evidence, bool) {
	in.lockFacts()
	ev, ok := in.guarded[op]
	return ev, ok
}

// GuardedAcquire reports whether a script is a guarded set with lock
// evidence at one of its runs (GuardedEvidence).
func (in *Info) GuardedAcquire(sc *resolve.Script) bool {
	in.lockFacts()
	for op := range in.guarded {
		if op.Script.Pos == sc.Pos {
			return true
		}
	}
	return false
}

// KeysAt returns the keys a script run (op) passes at the given 1-based
// KEYS indexes (lua.Detail's Guarded, Deletes, Expires): those it passes.
func KeysAt(op *resolve.Op, idx ...int) []ast.Expr {
	var out []ast.Expr
	for _, n := range idx {
		if n > 0 && n <= len(op.Keys) {
			out = append(out, op.Keys[n-1])
		}
	}
	return out
}

// findGuarded records the guarded sets with lock evidence as acquires of
// their keys (lockFacts calls it once the owner and library steps are
// known).
func (in *Info) findGuarded() {
	in.guarded = map[*resolve.Op]Evidence{}
	for _, op := range in.Ops {
		if op.Kind != resolve.Command || op.Script == nil || !op.Complete {
			continue
		}
		ks := KeysAt(op, op.Script.Detail.Guarded)
		if len(ks) == 0 {
			continue
		}
		if ev, ok := in.guardedEvidence(op, ks[0]); ok {
			in.guarded[op] = ev
			if key := in.ShapeOf(ks[0]).Key(); key != "" {
				in.acquired[key] = append(in.acquired[key], op)
			}
		}
	}
}

func (in *Info) guardedEvidence(op *resolve.Op, k ast.Expr) (Evidence, bool) {
	s := in.ShapeOf(k)
	if p, ok := matchShape(in.Settings.LockKey, s); ok {
		return Evidence{Kind: ByPattern, Pattern: p}, true
	}
	key := s.Key()
	if key == "" {
		return Evidence{}, false
	}
	if o := in.owner[key]; o != nil {
		return Evidence{Kind: ByOwnerCheck, Op: o}, true
	}
	if o := in.library[key]; o != nil {
		return Evidence{Kind: ByLibrary, Op: o}, true
	}
	for _, o := range in.Ops {
		if o == op || !in.deletesOrExpires(o, key) {
			continue
		}
		if name, ok := in.lockName(op, k); ok {
			return Evidence{Kind: ByName, Name: name}, true
		}
		if name, ok := in.lockName(o, o.Keys...); ok {
			return Evidence{Kind: ByName, Name: name}, true
		}
	}
	return Evidence{}, false
}

// deletesOrExpires reports whether op deletes or expires the key shape key
// without an owner check: a native DEL or EXPIRE, or a script's
// (lua.Detail.Deletes, Expires).
func (in *Info) deletesOrExpires(op *resolve.Op, key string) bool {
	if op.Kind != resolve.Command {
		return false
	}
	var ks []ast.Expr
	if sc := op.Script; sc != nil {
		ks = append(KeysAt(op, sc.Detail.Deletes...), KeysAt(op, sc.Detail.Expires...)...)
	} else if op.Steps()&(resolve.StepDelete|resolve.StepExpire) != 0 {
		ks = op.Keys
	}
	for _, k := range ks {
		if in.ShapeOf(k).Key() == key {
			return true
		}
	}
	return false
}

// ScriptStep is a script run (Op) that deletes or expires a lock key
// (Key) without comparing its value.
type ScriptStep struct {
	Op  *resolve.Op
	Key ast.Expr
}

// UncheckedLockSteps lists the script runs whose Lua deletes (or, with
// expires set, expires) a key it never compares (lua.Detail's Deletes,
// Expires) and that pass a lock key there (LockKeyAt), each with the first
// such key: an owner-less release or extend, which only the run shows to
// be a lock's.
func (in *Info) UncheckedLockSteps(expires bool) []ScriptStep {
	var out []ScriptStep
	for _, op := range in.Ops {
		if op.Kind != resolve.Command || op.Script == nil || !op.Complete || !op.Passes(resolve.PassedKey) {
			continue
		}
		idx := op.Script.Detail.Deletes
		if expires {
			idx = op.Script.Detail.Expires
		}
		for _, k := range KeysAt(op, idx...) {
			if _, ok := in.LockKeyAt(op, k); ok {
				out = append(out, ScriptStep{op, k})
				break
			}
		}
	}
	return out
}
