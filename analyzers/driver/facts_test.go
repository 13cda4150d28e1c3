package driver

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestFactDeps: loading only the package that uses the helpers of
// testdata/facts, the dependencies needed for facts are the helper that
// reaches a client (store), the module's token helper (tokens) and the
// token helper of another module it imports (randmod/random); not
// go-redis's own packages, not the standard library. Loading the whole
// module needs only the other module's helper. The checker's view keeps only the source-loaded
// packages in Imports.
func TestFactDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("loads testdata/facts with the go command")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "facts"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Context: context.Background(), Mode: packages.LoadSyntax | packages.NeedModule, Dir: dir}
	load := func(pats ...string) []*packages.Package {
		t.Helper()
		pkgs, err := packages.Load(cfg, pats...)
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			t.Fatalf("load %v: %v", pats, err)
		}
		return pkgs
	}
	roots := load("./dispatch")
	got := factDeps(roots)
	want := []string{"example.com/facts/store", "example.com/facts/tokens", "example.com/randmod/random"}
	if !slices.Equal(got, want) {
		t.Errorf("factDeps(./dispatch) = %v, want %v", got, want)
	}
	if got, other := factDeps(load("./...")), []string{"example.com/randmod/random"}; !slices.Equal(got, other) {
		t.Errorf("factDeps(./...) = %v, want only the other module's token helper %v", got, other)
	}

	view, err := loadForFacts(context.Background(), cfg, []string{"./dispatch"}, roots)
	if err != nil {
		t.Fatal(err)
	}
	if len(view) != 1 || view[0].PkgPath != "example.com/facts/dispatch" {
		t.Fatalf("view roots = %v", view)
	}
	var imports []string
	for path, p := range view[0].Imports {
		imports = append(imports, path)
		if p.Syntax == nil || p.TypesInfo == nil {
			t.Errorf("%s in the view has no syntax", path)
		}
	}
	slices.Sort(imports)
	if !slices.Equal(imports, want) {
		t.Errorf("the view's imports of dispatch = %v, want %v (context, go-redis and the rest are export data)", imports, want)
	}
}

func TestWantedExperiment(t *testing.T) {
	for expr, want := range map[string]string{
		"goexperiment.jsonv2":                      "jsonv2",
		"goexperiment.simd && amd64":               "simd",
		"!goexperiment.jsonv2":                     "",
		"!goexperiment.arenas || goexperiment.foo": "foo",
		"linux && amd64":                           "",
		"goexperiment.":                            "",
	} {
		if got := wantedExperiment(expr); got != want {
			t.Errorf("wantedExperiment(%q) = %q, want %q", expr, got, want)
		}
	}
}
