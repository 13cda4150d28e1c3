package keys

import (
	"go/types"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// lockkey(e, "why") states that e is a lock key ("acquired" or "pattern");
// notlock(e) that it is not. Every acquire's function is named in
// TestIsLockAcquire with whether it takes a lock.
const lockSrc = `package p

import (
	"bytes"
	"fmt"
)

type Mutex struct{ key, name, token string }

func (m *Mutex) Lock()   { setnx(m.key, m.token) }
func (m *Mutex) Unlock() { del(m.key); lockkey(m.key, "acquired"); notlock(m.name) }

func jobKey(id string) string { return "job:" + id }

// Acquired, but nothing says lock.
func acquire(id string) {
	setnx(fmt.Sprintf("job:%s:owner", id), "t")
	setnx(jobKey(id), "t")
}

func marker(id string) { setnx("seen:"+id, 1) } // an idempotency marker: never released

// A state flag that must persist until it is cleared: a plain DEL or an
// EXPIRE of the key is no evidence.
func pause(q string)   { setnxOld("paused:"+q, 1) }
func unpause(q string) { del("paused:" + q); expire("paused:" + q) }

func released(id string) { setnx("task:"+id, "t") }
func releaser(id string) { delifeq("task:"+id, "t") }

func fenced(id string) {
	multi(func() {
		setnx("res:{"+id+"}", "t")
		incr("fence:{"+id+"}")
	})
}

// A GET compared with the value written is an owner check ...
func owned(id, tok string) { setnx("owned:"+id, tok) }
func ownedRelease(id, tok string) {
	if v := get("owned:" + id).String(); v == tok {
		del("owned:" + id)
	}
}

// ... also through bytes.Equal; a GET compared with anything else is not.
func ownedBytes(id string, tok []byte) { setnx("owned2:"+id, tok) }
func ownedBytesCheck(id string, tok []byte) bool {
	b := []byte(get("owned2:" + id).String())
	return bytes.Equal(b, tok)
}
func counted(id, tok string)     { setnx("counted:"+id, tok) }
func countedRead(id string) bool { return get("counted:"+id).String() == "x" }

// A Lua compare-and-delete run with the key; a lock library on the key.
func scripted(id, tok string)        { setnx("job2:"+id, tok) }
func scriptedRelease(id, tok string) { eval(cad, "job2:"+id) }
func withLibrary(id string)          { setnx("sched:"+id, "t"); libNewMutex("sched:" + id) }

// Names that say lock.
func acquireLease(id string) { setnx("res2:"+id, "t") }
func takeLeader(id string)   { setnx("res3:"+id, "t") }

type Locker struct{}

func (l *Locker) Try(id string) { setnx("res4:"+id, "t") }
func named(id string)           { lockKey := "res5:" + id; setnx(lockKey, "t") }

// Names that do not.
func clockSkew(id string) { setnx("res6:"+id, "t") }
func blockList(id string) { setnx("res7:"+id, "t") }
func release(id string)   { setnx("res8:"+id, "t") }

// Generic wrappers: key and value are parameters.
func SetNX(key string, value any) { setnx(key, value) }
func Setnx(key string)            { setnxOld(key, 1) }

const cad = ` + "`" + `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0` + "`" + `

func f(id, key string) {
	lockkey("lock:"+id, "pattern")
	lockkey(id+":lock", "pattern")
	lockkey("task:"+id, "acquired")
	lockkey(lockName(id), "pattern")
	notlock("job:"+id+":owner")
	notlock(jobKey(id))
	notlock("paused:"+id)
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
		if ok && !strings.Contains(in.Why(k), "SET NX at p.go:") && !strings.Contains(in.Why(k), "matches `") {
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
	want := map[string]EvidenceKind{
		"Lock": ByName, "acquire": NoEvidence, "marker": NoEvidence, "pause": NoEvidence,
		"released": ByOwnerCheck, "fenced": ByFence, "owned": ByOwnerCheck, "ownedBytes": ByOwnerCheck,
		"counted": NoEvidence, "scripted": ByOwnerCheck, "withLibrary": ByLibrary,
		"acquireLease": ByName, "takeLeader": ByName, "Try": ByName, "named": ByName,
		"clockSkew": NoEvidence, "blockList": NoEvidence, "release": NoEvidence,
		"SetNX": NoEvidence, "Setnx": NoEvidence,
	}
	seen := map[string]bool{}
	for _, op := range in.Ops {
		if !op.IsAcquire() {
			continue
		}
		name := op.Func.Name.Name
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: an acquire the test does not expect", name)
			continue
		}
		seen[name] = true
		ev, got := in.AcquireEvidence(op)
		if got != (w != NoEvidence) || ev.Kind != w {
			t.Errorf("%s: AcquireEvidence(SET NX %s) = %v %+v, want kind %d", name, types.ExprString(op.Key()), got, ev, w)
		}
		if in.IsLockAcquire(op) != got {
			t.Errorf("%s: IsLockAcquire disagrees with AcquireEvidence", name)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s: no acquire checked", name)
		}
	}
}

func TestLockWord(t *testing.T) {
	for name, want := range map[string]bool{
		"Lock": true, "acquireLock": true, "unlockScript": true, "redislock": true, "HTTPLock": true,
		"lock_key": true, "locks": true, "Locker": true, "mutexName": true, "renewLease": true,
		"LeaseKey": true, "leaderElection": true, "flock": true,
		"block": false, "Clock": false, "unblock": false, "release": false, "luaRelease": false,
		"please": false, "key": false, "Pause": false, "SetNX": false, "lo": false, "": false,
	} {
		if got := LockWord(name); got != want {
			t.Errorf("LockWord(%q) = %v, want %v", name, got, want)
		}
	}
}

// ScriptEvidence: a compare-and-delete is a lock's release only with
// evidence; each snippet is a package of its own (a package that takes
// locks is evidence for its scripts).
func TestScriptEvidence(t *testing.T) {
	const script = "const cad = `if redis.call(\"GET\", KEYS[1]) == ARGV[1] then return redis.call(\"DEL\", KEYS[1]) end return 0`\n"
	for _, c := range []struct {
		name, src string
		want      EvidenceKind
	}{
		{"data", "func invalidate(key string) { eval(cad, \"cache:\"+key) }", NoEvidence},
		{"data, generic wrapper", "func DelIfEqual(key string) { eval(cad, key) }", NoEvidence},
		{"name of the function", "func unlockJob(id string) { eval(cad, \"job:\"+id) }", ByName},
		{"name of the variable", "func f(id string) { eval(releaseLockScript, \"job:\"+id) }\nconst releaseLockScript = cad", ByName},
		{"lock-key pattern", "func f(id string) { eval(cad, \"lock:\"+id) }", ByPattern},
		{"acquired key", "func f(id, tok string) { eval(cad, \"job:\"+id) }\nfunc g(id, tok string) { multi(func() { setnx(\"job:\"+id, tok); incr(\"fence:\"+id) }) }", ByAcquire},
		{"the package takes locks", "func f(key string) { eval(cad, \"cache:\"+key) }\nfunc g(tok string) { setnx(\"lock:x\", tok) }", ByPackage},
		{"a flag is no lock", "func f(key string) { eval(cad, \"cache:\"+key) }\nfunc g(q string) { setnxOld(\"paused:\"+q, 1) }", NoEvidence},
	} {
		in := load(t, "package p\n"+script+c.src+"\n")
		n := 0
		for _, op := range in.Ops {
			if op.Script == nil {
				continue
			}
			n++
			ev, ok := in.ScriptEvidence(op.Script)
			if ok != (c.want != NoEvidence) || ev.Kind != c.want {
				t.Errorf("%s: ScriptEvidence = %v %+v, want kind %d", c.name, ok, ev, c.want)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d scripts, want 1", c.name, n)
		}
	}
}

// CheckedBefore: a DEL or an EXPIRE after a GET of the same key whose reply
// is compared, in the same function.
func TestCheckedBefore(t *testing.T) {
	in := load(t, `package p

func release(key, tok string) {
	if get(key).String() == tok {
		del(key) // checked
	}
}

func renew(key, tok string) {
	v := get(key).String()
	if v != tok {
		return
	}
	pexpire(key) // checked
}

func unchecked(key, other string) {
	get(key)
	del(key) // the reply is not compared
	if get(other).String() == "x" {
		del(key) // another key
	}
}

func elsewhere(key string) { del(key) } // the GET is in another function
`)
	want := map[int]bool{5: true, 14: true, 19: false, 21: false, 25: false}
	for _, op := range in.Ops {
		if op.Name != "DEL" && op.Name != "PEXPIRE" {
			continue
		}
		line := in.Line(op.Pos)
		w, ok := want[line]
		if !ok {
			t.Errorf("line %d: unexpected %s", line, op.Name)
			continue
		}
		delete(want, line)
		if got := in.CheckedBefore(op) != nil; got != w {
			t.Errorf("line %d: CheckedBefore = %v, want %v", line, got, w)
		}
	}
	for line := range want {
		t.Errorf("line %d: no op checked", line)
	}
}

// AcquireExpire: the EXPIRE that completes a TTL-less SETNX is the first of
// the same key after it in the same function, not one that renews it in a
// loop or a goroutine.
func TestAcquireExpire(t *testing.T) {
	in := load(t, `package p

func pair(key string) {
	setnxOld(key, 1)
	expire(key) // completes
	for {
		expire(key) // renews
	}
}

func retry(key string) {
	for {
		setnxOld(key, 1)
		expire(key) // completes: the loop holds both
	}
}

func renewOnly(key string) {
	setnxOld(key, 1)
	for i := 0; i < 3; i++ {
		pexpire(key) // renews
	}
	go func() { expire(key) }() // another function literal
}

func withTTL(key string) {
	setnx(key, 1) // has a TTL: nothing to complete
	expire(key)
}
`)
	want := map[int]bool{5: true, 7: false, 14: true, 21: false, 23: false, 28: false}
	for _, op := range in.Ops {
		if op.Steps()&resolve.StepExpire == 0 {
			continue
		}
		line := in.Line(op.Pos)
		w, ok := want[line]
		if !ok {
			t.Errorf("line %d: unexpected %s", line, op.Name)
			continue
		}
		delete(want, line)
		if got := in.CompletesAcquire(op); got != w {
			t.Errorf("line %d: CompletesAcquire = %v, want %v", line, got, w)
		}
	}
	for line := range want {
		t.Errorf("line %d: no op checked", line)
	}
}

// load type-checks a snippet (analyzertest.Load) and returns its key facts.
func load(t *testing.T, src string) *Info {
	sn := analyzertest.Load(t, src)
	return New(sn.Index, sn.Ops, sn.Settings)
}
