package keys

import (
	"go/types"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
)

// In these sources, same(a, b) and differ(a, b) state whether a and b are
// the same key; kind(e, "template") states e's shape kind; texts(e, "a|b")
// its constant pieces.
const shapeSrc = `package p

import "fmt"

const prefix = "lock:"

var pkgKey = "lock:pkg"
var reassigned = "lock:a"

func init() { reassigned = "lock:b" }

func lockKey(id string) string  { return "lock:{" + id + "}" }
func fenceKey(id string) string { return fmt.Sprintf("fence:{%s}", id) }
func keyFor(id string) string {
	if id == "" {
		return "x"
	}
	return "lock:" + id
}

type M struct{ key, other string }

type name string

func f(id, other string, m *M, n name, i int) {
	k := "lock:" + id
	var k2 string
	k2 = fmt.Sprintf("lock:%v", other)
	multi := "a"
	multi = "b"
	same(k, "lock:"+other)
	same(k, k2)
	same(fmt.Sprintf("lock:%s", id), "lock:"+id)
	same(prefix+id, "lock:"+id)
	same(lockKey(id), lockKey("x"))
	same(m.key, m.key)
	same(pkgKey, "lock:pkg")
	same("lock:"+id+":"+other, fmt.Sprintf("lock:%s:%d", id, i))
	same(string(n), n)
	same(id, id)
	same("a"+"b", "ab")
	same(fmt.Sprintf("lock:%s", "job"), "lock:job")
	differ("lock:"+id, "fence:"+id)
	differ(id, other)
	differ(m.key, m.other)
	differ(lockKey(id), fenceKey(id))
	differ(fmt.Sprintf("lock:%x", id), "lock:"+id)
	differ(multi, "b")
	differ(reassigned, "lock:b")
	differ(keyFor(id), keyFor(id)+"")
	kind(k, "template")
	kind(prefix, "const")
	kind(id, "object")
	kind(m.key, "object")
	kind(multi, "object")
	kind(lockKey(id), "call")
	kind(keyFor(id), "call")
	kind(fmt.Sprintf("%[1]s", id), "unknown")
	kind(fmt.Sprintf("lock:%s"), "unknown")
	kind(fmt.Sprint(id), "unknown")
	texts(lockKey(id), "lock:{|}")
	texts(fenceKey(id), "fence:{|}")
	texts(keyFor(id), "")
	texts("a:"+id+":b", "a:|:b")
	texts(fmt.Sprintf("job:%08d:lock", i), "job:|:lock")
}

func same(a, b any)          {}
func differ(a, b any)        {}
func kind(a any, k string)   {}
func texts(a any, t string)  {}
`

func TestShapeSame(t *testing.T) {
	in := load(t, shapeSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "same") {
		a, b := in.ShapeOf(c.Args[0]), in.ShapeOf(c.Args[1])
		if !a.Same(b) {
			t.Errorf("line %d: %s and %s: want the same key, got %q and %q", in.Line(c.Pos()), types.ExprString(c.Args[0]), types.ExprString(c.Args[1]), a.Key(), b.Key())
		}
	}
	for _, c := range analyzertest.MustCalls(t, in.Index, "differ") {
		a, b := in.ShapeOf(c.Args[0]), in.ShapeOf(c.Args[1])
		if a.Same(b) {
			t.Errorf("line %d: %s and %s: want different keys, both %q", in.Line(c.Pos()), types.ExprString(c.Args[0]), types.ExprString(c.Args[1]), a.Key())
		}
	}
}

func TestSameKey(t *testing.T) {
	in := load(t, `package p

import "fmt"

func lockKey(id string) string { return "lock:" + id }

func f(a, b string) {
	k := "lock:" + a
	same(k, fmt.Sprintf("lock:%s", a))
	same(lockKey(a), lockKey(a))
	same("lock:x", "lock:x")
	differ("lock:"+a, "lock:"+b)
	differ(lockKey(a), lockKey(b))
	differ(a, b)
}

func same(a, b string)   {}
func differ(a, b string) {}
`)
	for name, want := range map[string]bool{"same": true, "differ": false} {
		for _, c := range analyzertest.MustCalls(t, in.Index, name) {
			if got := in.SameKey(c.Args[0], c.Args[1]); got != want {
				t.Errorf("line %d: SameKey(%s, %s) = %v, want %v", in.Line(c.Pos()), types.ExprString(c.Args[0]), types.ExprString(c.Args[1]), got, want)
			}
		}
	}
}

func TestShapeKind(t *testing.T) {
	in := load(t, shapeSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "kind") {
		want := analyzertest.ConstString(in.Index, c.Args[1])
		if got := in.ShapeOf(c.Args[0]).Kind.String(); got != want {
			t.Errorf("line %d: %s: kind %s, want %s", in.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
	}
}

func TestShapeTexts(t *testing.T) {
	in := load(t, shapeSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "texts") {
		want := analyzertest.ConstString(in.Index, c.Args[1])
		got := ""
		for i, s := range in.ShapeOf(c.Args[0]).Texts() {
			if i > 0 {
				got += "|"
			}
			got += s
		}
		if got != want {
			t.Errorf("line %d: %s: texts %q, want %q", in.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
	}
}
