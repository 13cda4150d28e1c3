package keys

import (
	"go/types"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
)

// shared(a, b), apart(a, b) and undecided(a, b) state how the hash tags of
// two keys compare; tag(e, "text") states e's tag ("" none, "?" unknown,
// holes as <expr>).
const tagSrc = `package p

import "fmt"

func lockKey(id string) string  { return "lock:{" + id + "}" }
func fenceKey(id string) string { return fmt.Sprintf("fence:{%s}", id) }

type Job struct{ ID, Name string }

func f(id, other string, job Job, key string) {
	tagged := "{" + id + "}"
	shared("lock:{"+id+"}", "fence:{"+id+"}")
	shared(fmt.Sprintf("lock:{%s}", id), "fence:{"+id+"}")
	shared(lockKey(id), fenceKey(id))
	shared("lock:{job}", "fence:{job}")
	shared("lock:"+tagged, "fence:{"+id+"}")
	shared("lock:{"+job.ID+"}", fmt.Sprintf("fence:{%s}", job.ID))
	shared("{a"+id+"}:lock", "{a"+id+"}:fence")
	apart("lock:"+id, "fence:"+id)
	apart("lock:{job}", "fence:{other}")
	apart("lock:{job}", "fence:job")
	apart("lock:{}"+id, "fence:{}"+id)
	apart("lock:{"+id, "fence:{"+id)
	undecided("lock:{"+id+"}", "fence:{"+other+"}")
	undecided("lock:{"+job.ID+"}", "fence:{"+job.Name+"}")
	undecided("lock:{job}", "fence:{"+id+"}")
	undecided(key, "fence:{"+id+"}")
	tag("lock:{"+id+"}:x{y}", "<id>")
	tag("lock:{job:"+id+"}", "job:<id>")
	tag("lock:"+id, "")
	tag(key, "?")
	tag(lockKey(other), "<other>")
}

func shared(a, b string)    {}
func apart(a, b string)     {}
func undecided(a, b string) {}
func tag(a, want string)    {}
`

func TestSameTag(t *testing.T) {
	in := load(t, tagSrc)
	for name, want := range map[string][2]bool{"shared": {true, true}, "apart": {false, true}, "undecided": {false, false}} {
		for _, c := range analyzertest.MustCalls(t, in.Index, name) {
			same, known := in.SameTag(in.TagOf(in.ShapeOf(c.Args[0])), in.TagOf(in.ShapeOf(c.Args[1])))
			if same != want[0] || known != want[1] {
				t.Errorf("line %d: %s, %s: same=%v known=%v, want %s", in.Line(c.Pos()), types.ExprString(c.Args[0]), types.ExprString(c.Args[1]), same, known, name)
			}
		}
	}
}

func TestTagOf(t *testing.T) {
	in := load(t, tagSrc)
	for _, c := range analyzertest.MustCalls(t, in.Index, "tag") {
		tag := in.TagOf(in.ShapeOf(c.Args[0]))
		got := "?"
		if tag.Known {
			var b strings.Builder
			for _, p := range tag.Parts {
				if p.Hole != nil {
					b.WriteString("<" + types.ExprString(p.Hole) + ">")
				} else {
					b.WriteString(p.Text)
				}
			}
			got = b.String()
			if tag.Has != (got != "") {
				t.Errorf("line %d: Has=%v with parts %q", in.Line(c.Pos()), tag.Has, got)
			}
		}
		if want := analyzertest.ConstString(in.Index, c.Args[1]); got != want {
			t.Errorf("line %d: %s: tag %q, want %q", in.Line(c.Pos()), types.ExprString(c.Args[0]), got, want)
		}
	}
}
