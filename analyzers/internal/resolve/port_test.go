package resolve

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestDeclaresPortNotInAClient: a project's Eval-shaped client interface
// makes its package reach a client, but the same interface in a client's
// own package (go-redis's Scripter) does not: reading go-redis itself as
// client use doubled vet's time on a module that builds it.
func TestDeclaresPortNotInAClient(t *testing.T) {
	const src = `package p
type Scripter interface {
	Eval(script string, keys []string, args ...interface{}) (interface{}, error)
}
type Cache interface {
	Get(key string) (string, error)
}`
	for _, tt := range []struct {
		path, src string
		want      bool
	}{
		{"example.com/locklib", src, true},
		{"github.com/redis/go-redis/v9", src, false},
		{"example.com/vendored/vendor/github.com/redis/go-redis/v9", src, false},
		{"example.com/cache", "package p\ntype Cache interface { Get(key string) (string, error) }", false},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", tt.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{}).Check(tt.path, fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := declaresPort(pkg); got != tt.want {
			t.Errorf("declaresPort(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
