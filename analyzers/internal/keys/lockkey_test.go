package keys

import (
	"go/types"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
)

// lockkey(e, "why") states that e is a lock key ("acquired" or "pattern");
// notlock(e) that it is not. acq(op-call, bool) states IsLockAcquire.
const lockSrc = `package p

import "fmt"

type Mutex struct{ key, name string }

func (m *Mutex) Lock()   { setnx(m.key, "t") }
func (m *Mutex) Unlock() { del(m.key); lockkey(m.key, "acquired"); notlock(m.name) }

func jobKey(id string) string { return "job:" + id }

func acquire(id string) {
	setnx(fmt.Sprintf("job:%s:owner", id), "t")
	setnx(jobKey(id), "t")
}

func marker(id string) {
	setnx("seen:"+id, 1) // an idempotency marker: never released
}

func released(id string) {
	setnx("task:"+id, "t")
}

func releaser(id string) { delifeq("task:"+id, "t") }

func fenced(id string) {
	multi(func() {
		setnx("res:{"+id+"}", "t")
		incr("fence:{"+id+"}")
	})
}

func f(id, key string) {
	lockkey("lock:"+id, "pattern")
	lockkey(id+":lock", "pattern")
	lockkey("job:"+id+":owner", "acquired")
	lockkey(jobKey(id), "acquired")
	lockkey(lockName(id), "pattern")
	notlock("cache:"+id)
	notlock("block:"+id)
	notlock(key)
	notlock(helper(id))
}

func lockName(id string) string { return "locks/" + id }
func helper(id string) string   { if id == "" { return "lock:x" }; return id }

func lockkey(e any, why string) {}
func notlock(e any)             {}
`

func TestIsLockKey(t *testing.T) {
	in := load(t, lockSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "lockkey") {
		k, ok := in.IsLockKey(c.Args[0])
		why := "pattern"
		if k.Acquire != nil {
			why = "acquired"
		}
		if want := analyzertest.ConstString(in.Index, c.Args[1]); !ok || why != want {
			t.Errorf("line %d: %s: lock key %v (%s), want %s", in.Line(c.Pos()), types.ExprString(c.Args[0]), ok, why, want)
		}
		if ok && !strings.Contains(in.Why(k), why[:5]) && !strings.Contains(in.Why(k), "matches") {
			t.Errorf("line %d: Why = %q", in.Line(c.Pos()), in.Why(k))
		}
	}
	for _, c := range analyzertest.MustCalls(t, in.Index, "notlock") {
		if k, ok := in.IsLockKey(c.Args[0]); ok {
			t.Errorf("line %d: %s: lock key (%s), want not", in.Line(c.Pos()), types.ExprString(c.Args[0]), in.Why(k))
		}
	}
}

func TestIsLockAcquire(t *testing.T) {
	in := load(t, lockSrc)
	want := map[string]bool{"Lock": true, "acquire": false, "marker": false, "released": true, "fenced": true}
	seen := 0
	for _, op := range in.Ops {
		if !op.IsAcquire() {
			continue
		}
		w, ok := want[op.Func.Name.Name]
		if !ok {
			continue
		}
		seen++
		// acquire's keys are lock keys only because they are acquired:
		// acquiring is not evidence of a lock by itself.
		if got := in.IsLockAcquire(op); got != w {
			t.Errorf("%s: IsLockAcquire(SET NX %s) = %v, want %v", op.Func.Name.Name, types.ExprString(op.Key()), got, w)
		}
	}
	if seen != 6 {
		t.Errorf("checked %d acquires, want 6", seen)
	}
}

// load type-checks a snippet (analyzertest.Load) and returns its key facts.
func load(t *testing.T, src string) *Info {
	sn := analyzertest.Load(t, src)
	return New(sn.Index, sn.Ops, sn.Settings)
}
