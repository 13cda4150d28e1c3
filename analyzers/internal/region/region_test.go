package region

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
)

// held() marks a point inside a lock-holding region, free() one outside.
const regionSrc = `package p

import "errors"

func straight() {
	free()
	setnx("lock:a", "t")
	held()
	delifeq("lock:a", "t")
	free()
}

func deferred() {
	setnx("lock:a", "t")
	defer delifeq("lock:a", "t")
	held()
}

func deferredLit() {
	setnx("lock:a", "t")
	defer func() { del("lock:a") }()
	held()
}

func earlyExit(fail bool) error {
	setnx("lock:a", "t")
	if fail {
		delifeq("lock:a", "t")
		return errors.New("x")
	}
	held()
	delifeq("lock:a", "t")
	free()
	return nil
}

func otherKey() {
	setnx("lock:a", "t")
	delifeq("lock:b", "t")
	held()
}

func txAcquire() {
	multi(func() {
		setnx("lock:{a}", "t")
		incr("fence:{a}")
	})
	held()
}

func library() {
	free()
	libLock()
	held()
	libUnlock()
	free()
}

func seenMarker() {
	setnx("seen:x", 1)
	free()
}

func held() {}
func free() {}
`

func TestRegions(t *testing.T) {
	in := load(t, regionSrc)
	check := func(name string, want bool) {
		for _, c := range analyzertest.MustCalls(t, in.Index, name) {
			fd := in.FuncOf(c)
			_, got := Holding(Regions(in, fd), c.Pos())
			if got != want {
				t.Errorf("line %d (%s): holds = %v, want %v", in.Line(c.Pos()), fd.Name.Name, got, want)
			}
		}
	}
	check("held", true)
	check("free", false)

	funcs := LockFuncs(in)
	names := map[string]bool{}
	for _, fd := range funcs {
		if names[fd.Name.Name] {
			t.Errorf("LockFuncs has %s twice", fd.Name.Name)
		}
		names[fd.Name.Name] = true
	}
	for i := 1; i < len(funcs); i++ {
		if funcs[i].Pos() < funcs[i-1].Pos() {
			t.Errorf("LockFuncs: %s before %s, want source order", funcs[i-1].Name.Name, funcs[i].Name.Name)
		}
	}
	for _, n := range []string{"straight", "deferred", "deferredLit", "earlyExit", "otherKey", "txAcquire", "library"} {
		if !names[n] {
			t.Errorf("LockFuncs lacks %s", n)
		}
	}
	if names["seenMarker"] {
		t.Error("LockFuncs has seenMarker (an idempotency marker)")
	}
	// The straight region ends at its release.
	for _, fd := range funcs {
		if fd.Name.Name != "straight" {
			continue
		}
		r := Regions(in, fd)
		if len(r) != 1 || r[0].Release == nil || r[0].Release.Name != "DELIFEQ" {
			t.Errorf("straight: regions %+v, want one ended by DELIFEQ", r)
		}
	}
}

// load type-checks a snippet (analyzertest.Load) and returns its key facts.
func load(t *testing.T, src string) *keys.Info {
	sn := analyzertest.Load(t, src)
	return keys.New(sn.Index, sn.Ops, sn.Settings)
}
