package analyzers_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockaudit/lockaudit/analyzers"
)

// TestLibScan runs every analyzer over the real lock libraries (the module
// testdata/libscan pins their versions; on a fresh machine go/packages
// fetches them through the module proxy) and checks that their Lua lock
// scripts are reported as LA101, each at its variable's constructor, and
// that nothing else is reported but the few real findings listed below.
//
// Not reported, by design: bsm/redislock's luaPTTL (an owner-checked PTTL
// read, no lock step) and valkeylock's fcqat/fcqms (force acquire: a plain
// SET PX, indistinguishable by text from a cache write). Calls between a
// library's own functions are its implementation, not LA102 uses.
func TestLibScan(t *testing.T) {
	if testing.Short() {
		t.Skip("loads real modules from the module cache or proxy")
	}
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "libscan"))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		pkg, version, file string
		vars               []string
	}{
		{"github.com/go-redsync/redsync/v4", "v4.18.1", "scripts.go", []string{"deleteScript", "touchWithSetNXScript", "touchScript"}},
		{"github.com/bsm/redislock", "v0.9.4", "redislock.go", []string{"luaRefresh", "luaRelease", "luaObtain"}},
		{"github.com/valkey-io/valkey-go/valkeylock", "v1.0.79", "lock.go", []string{"delkey", "extend", "acqms", "acqat"}},
	}
	var paths []string
	for _, w := range want {
		paths = append(paths, w.pkg)
	}
	cfg := &packages.Config{
		Mode: packages.LoadSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d errors loading %v", n, paths)
	}
	graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}

	// Every diagnostic of a root analyzer, as "file:line:col RULE".
	got := map[string]string{}
	var fset *token.FileSet
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Errorf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		fset = act.Package.Fset
		for _, d := range act.Diagnostics {
			got[where(fset, d.Pos)+" "+d.Category] = d.Message
		}
	}

	// The expected findings: LA101 at each script variable's constructor.
	expected := map[string]bool{}
	for _, w := range want {
		pkg := find(pkgs, w.pkg)
		if pkg == nil {
			t.Fatalf("%s not loaded", w.pkg)
		}
		if pkg.Module == nil || pkg.Module.Version != w.version {
			t.Errorf("%s: loaded module %+v, want version %s", w.pkg, pkg.Module, w.version)
		}
		for _, v := range w.vars {
			pos := constructor(pkg, w.file, v)
			if !pos.IsValid() {
				t.Errorf("%s: no var %s in %s", w.pkg, v, w.file)
				continue
			}
			key := where(pkg.Fset, pos) + " LA101"
			expected[key] = true
			msg, ok := got[key]
			switch {
			case !ok:
				t.Errorf("%s %s.%s: no LA101 at %s", w.pkg, w.file, v, key)
			case !strings.HasPrefix(msg, "Lua lock script ("):
				t.Errorf("%s %s.%s: unexpected message %q", w.pkg, w.file, v, msg)
			}
		}
	}
	// Real findings in a library's own code, judged so in the real-world
	// suite (testdata/realworld/valkeylock.mod):
	// valkeylock drops the outcome of its release helper on cleanup
	// (_ = m.script(ctx, delkey, ...)); LA108 through the helper.
	for _, k := range []string{"valkeylock/lock.go:293:8 LA108"} {
		if _, ok := got[k]; !ok {
			t.Errorf("no %s", k)
		}
		expected[k] = true
	}
	t.Logf("%d findings over %v", len(got), paths)
	var extra []string
	for k, msg := range got {
		if !expected[k] {
			extra = append(extra, k+": "+msg)
		}
	}
	sort.Strings(extra)
	for _, e := range extra {
		t.Errorf("unexpected finding %s", e)
	}
}

func find(pkgs []*packages.Package, path string) *packages.Package {
	for _, p := range pkgs {
		if p.PkgPath == path {
			return p
		}
	}
	return nil
}

// constructor returns the position of the call initialising the package
// variable name in file.
func constructor(pkg *packages.Package, file, name string) token.Pos {
	for _, f := range pkg.Syntax {
		if filepath.Base(pkg.Fset.File(f.FileStart).Name()) != file {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, n := range vs.Names {
					if n.Name == name && i < len(vs.Values) {
						return vs.Values[i].Pos()
					}
				}
			}
		}
	}
	return token.NoPos
}

func where(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s/%s:%d:%d", filepath.Base(filepath.Dir(p.Filename)), filepath.Base(p.Filename), p.Line, p.Column)
}
