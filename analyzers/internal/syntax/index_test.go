package syntax_test

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// single(x, "value") states that x is single-valued with that value
// ("zero" for a bare declaration); notsingle(x) that it is not.
const src = `package p

import (
	"log"
	"os"
)

var pkgOnce = "a"
var pkgTwice = "a"
var pkgZero string
var pkgAddr = "a"

func init() { pkgTwice = "b" }

func f(param string) {
	a := "x"
	var b string
	b = "y"
	c := "z"
	c = "w"
	d, err := two()
	n := 0
	n++
	for i := 0; i < 3; i++ {
		notsingle(i)
	}
	_ = &pkgAddr
	single(pkgOnce, "\"a\"")
	single(pkgZero, "zero")
	single(a, "\"x\"")
	single(b, "\"y\"")
	notsingle(pkgTwice)
	notsingle(pkgAddr)
	notsingle(c)
	notsingle(d)
	notsingle(err)
	notsingle(n)
	notsingle(param)
}

func two() (string, error) { return "", nil }

func single(v any, want string) {}
func notsingle(v any)           {}

func ends(n int) int {
	if n == 0 {
		return 1
	}
	if n == 1 {
		os.Exit(1)
	}
	if n == 2 {
		log.Fatal("x")
	}
	if n == 3 {
		n++
	}
	return n
}
`

func TestSingle(t *testing.T) {
	x := analyzertest.Load(t, src).Index
	for _, c := range analyzertest.MustCalls(t, x, "single") {
		obj := x.ObjOf(c.Args[0])
		w, ok := x.Single(obj)
		want := analyzertest.ConstString(x, c.Args[1])
		got := "zero"
		if v := w.Value(); v != nil {
			got = types.ExprString(v)
		}
		if !ok || got != want {
			t.Errorf("line %d: Single(%s) = %q, %v; want %q", x.Line(c.Pos()), types.ExprString(c.Args[0]), got, ok, want)
		}
	}
	for _, c := range analyzertest.MustCalls(t, x, "notsingle") {
		if w, ok := x.Single(x.ObjOf(c.Args[0])); ok {
			t.Errorf("line %d: %s is single-valued: %+v", x.Line(c.Pos()), types.ExprString(c.Args[0]), w)
		}
	}
	// Follow goes through b to its value, and stops at c.
	calls := analyzertest.MustCalls(t, x, "single")
	if e, ok := x.Follow(calls[3].Args[0]); !ok || types.ExprString(e) != `"y"` {
		t.Errorf("Follow(b) = %s, %v", types.ExprString(e), ok)
	}
	if _, ok := x.Follow(analyzertest.MustCalls(t, x, "notsingle")[3].Args[0]); ok {
		t.Error("Follow(c) followed a variable written twice")
	}
}

func TestInInitAndWrites(t *testing.T) {
	x := analyzertest.Load(t, src).Index
	var pkgTwice, pkgAddr types.Object
	for _, c := range analyzertest.MustCalls(t, x, "notsingle") {
		switch types.ExprString(c.Args[0]) {
		case "pkgTwice":
			pkgTwice = x.ObjOf(c.Args[0])
		case "pkgAddr":
			pkgAddr = x.ObjOf(c.Args[0])
		}
	}
	ws := x.Writes(pkgTwice)
	if len(ws) != 2 || !x.InInit(ws[0].Pos) || !x.InInit(ws[1].Pos) {
		t.Errorf("pkgTwice: writes %+v, want two in package-level code or init", ws)
	}
	if !x.AddrTaken(pkgAddr) {
		t.Error("&pkgAddr not seen")
	}
	ws = x.Writes(pkgAddr)
	if len(ws) != 2 || ws[1].Kind != syntax.AddrOf || x.InInit(ws[1].Pos) {
		t.Errorf("pkgAddr: writes %+v, want the declaration and &pkgAddr in f", ws)
	}
}

func TestTerminates(t *testing.T) {
	x := analyzertest.Load(t, src).Index
	var got []bool
	for _, f := range x.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "ends" {
				continue
			}
			for _, s := range fd.Body.List {
				if ifs, ok := s.(*ast.IfStmt); ok {
					got = append(got, x.EndsBlock(ifs.Body))
				}
			}
		}
	}
	want := []bool{true, true, true, false} // return, os.Exit, log.Fatal, n++
	if len(got) != len(want) {
		t.Fatalf("ends: %d if statements", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("if #%d: EndsBlock = %v, want %v", i, got[i], want[i])
		}
	}
}
