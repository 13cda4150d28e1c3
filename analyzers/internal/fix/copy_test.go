package fix

import (
	"go/types"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
)

const fixSrc = `package p

import "fmt"

var pkgToken = "t"

func f(id string, other func()) {
	token := fmt.Sprint(id)
	setnx("lock:"+id, token)
	{
		token := "shadow"
		_ = token
		del("lock:" + id)
	}
	del("lock:" + id)
	later := "x"
	_ = later
}

func g(id string) {
	del("lock:" + id)
}

// visible(e, at) states whether e is visible at the call to at (a marker
// call that follows it in the same function).
func h(token string) {
	visible(token, true)
	visible(pkgToken, true)
	visible(fmt.Sprint(token), true)
	{
		x := 1
		_ = x
	}
	at()
}

func k() {
	y := 2
	_ = y
	at()
}

func visible(e any, want bool) {}
func at()                     {}
`

func TestVisible(t *testing.T) {
	in := load(t, fixSrc)
	ats := analyzertest.MustCalls(t, in.In.Index, "at")
	for _, c := range analyzertest.MustCalls(t, in.In.Index, "visible") {
		want := types.ExprString(c.Args[1]) == "true"
		if got := in.Visible(c.Args[0], ats[0].Pos()); got != want {
			t.Errorf("line %d: Visible(%s) at h's end = %v, want %v", in.In.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
		// None of h's locals is visible in k.
		if id := types.ExprString(c.Args[0]); id == "token" && in.Visible(c.Args[0], ats[1].Pos()) {
			t.Errorf("token visible in k")
		}
	}
}

const stableSrc = `package p

import "time"

const ttlConst = 30 * time.Second

var pkgOnce = 10 * time.Second
var pkgTwice = time.Second
var Exported = time.Second

func init() { pkgTwice = 2 * time.Second }

type locker struct{ ttl time.Duration; moved time.Duration }

func (l *locker) move() { l.moved = time.Minute }

func now() time.Duration { return 0 }

// stable(e, want) states whether e is stable.
func f(param time.Duration, changed time.Duration, l *locker) {
	changed = time.Hour
	once := 5 * time.Second
	twice := time.Second
	twice = 2 * time.Second
	var zero time.Duration
	addr := time.Second
	_ = &addr
	inc := 1
	inc++
	stable(ttlConst, true)
	stable(pkgOnce, true)
	stable(param, true)
	stable(once, true)
	stable(zero, true)
	stable(ttlConst.Milliseconds(), true)
	stable(time.Duration(inc)*time.Millisecond, false)
	stable(time.Duration(once), true)
	stable(l.ttl, true)
	stable(l.moved, false)
	stable(pkgTwice, false)
	stable(Exported, false)
	stable(changed, false)
	stable(twice, false)
	stable(addr, false)
	stable(now(), false)
	stable(func() time.Duration { return 0 }(), false)
}

func stable(e any, want bool) {}
`

func TestStable(t *testing.T) {
	in := load(t, stableSrc)
	for _, c := range analyzertest.MustCalls(t, in.In.Index, "stable") {
		want := types.ExprString(c.Args[1]) == "true"
		if got := in.Stable(c.Args[0]); got != want {
			t.Errorf("line %d: Stable(%s) = %v, want %v", in.In.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
	}
}

// load type-checks a snippet (analyzertest.Load) and returns a fix context
// over its key facts.
func load(t *testing.T, src string) *Ctx {
	sn := analyzertest.Load(t, src)
	return &Ctx{In: keys.New(sn.Index, sn.Ops, sn.Settings)}
}
