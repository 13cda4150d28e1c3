package syntax_test

import (
	"go/types"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

const predicatesSrc = `package p

import "context"

type (
	named     string
	namedInt  int
	empty     interface{}
	stringer  interface{ String() string }
	ctxAlias  = context.Context
	ownCtx    context.Context
)

const untypedString = "x"
const untypedInt = 1

var (
	str          string
	namedStr     named
	strPtr       *string
	byteSlice    []byte
	integer      int
	namedInteger namedInt
	int64v       int64
	anyv         any
	emptyv       interface{}
	namedEmpty   empty
	stringerv    stringer
	ctx          context.Context
	ctxa         ctxAlias
	ownctx       ownCtx
	ctxPtr       *context.Context
)

func generic[T any](t T) {}
`

// TestTypePredicates holds IsString, IsInt, IsInteger, IsEmptyInterface and IsContext
// to what the resolve and keys layers rely on, each way.
func TestTypePredicates(t *testing.T) {
	x := analyzertest.Load(t, predicatesSrc).Index
	typeOf := func(name string) types.Type {
		if name == "T" {
			return x.Pkg.Scope().Lookup("generic").(*types.Func).Signature().Params().At(0).Type()
		}
		obj := x.Pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("no %s in the source", name)
		}
		return obj.Type()
	}
	type want struct{ str, integer, anyInt, empty, ctx bool }
	for _, c := range []struct {
		name string
		want want
	}{
		{"str", want{str: true}},
		{"namedStr", want{str: true}},
		{"untypedString", want{str: true}},
		{"strPtr", want{}},
		{"byteSlice", want{}},
		{"integer", want{integer: true, anyInt: true}},
		{"namedInteger", want{integer: true, anyInt: true}},
		{"untypedInt", want{anyInt: true}},
		{"int64v", want{anyInt: true}},
		{"anyv", want{empty: true}},
		{"emptyv", want{empty: true}},
		{"namedEmpty", want{empty: true}},
		{"T", want{empty: true}},
		{"stringerv", want{}},
		{"ctx", want{ctx: true}},
		{"ctxa", want{ctx: true}},
		{"ownctx", want{}},
		{"ctxPtr", want{}},
	} {
		ty := typeOf(c.name)
		got := want{syntax.IsString(ty), syntax.IsInt(ty), syntax.IsInteger(ty), syntax.IsEmptyInterface(ty), syntax.IsContext(ty)}
		if got != c.want {
			t.Errorf("%s (%s): got %+v, want %+v", c.name, ty, got, c.want)
		}
	}
	if syntax.IsString(nil) || syntax.IsInt(nil) || syntax.IsInteger(nil) || syntax.IsEmptyInterface(nil) || syntax.IsContext(nil) {
		t.Error("a predicate holds for a nil type")
	}
}
