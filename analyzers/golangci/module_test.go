package golangci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// TestBuildModuleInStep keeps testdata/golangci (the module TestGolangciLint
// builds, as `golangci-lint custom` would) in step with lockaudit's own
// go.mod. It replaces lockaudit with ../.., so every requirement lockaudit
// raises raises the build module's graph too: a go.mod or go.sum that was not
// tidied after that fails only on a machine whose module cache lacks the
// new version (CI's), with "missing go.sum entry". This test names the module
// at once, without downloading anything.
func TestBuildModuleInStep(t *testing.T) {
	root := parseMod(t, filepath.Join("..", "..", "go.mod"))
	build := parseMod(t, filepath.Join("..", "..", "testdata", "golangci", "go.mod"))
	sum, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golangci", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]string{}
	for _, r := range build.Require {
		have[r.Mod.Path] = r.Mod.Version
	}
	for _, r := range root.Require {
		v, ok := have[r.Mod.Path]
		if !ok {
			continue // outside what the plugin imports (module graph pruning)
		}
		if semver.Compare(v, r.Mod.Version) < 0 {
			t.Errorf("testdata/golangci/go.mod requires %s %s, lockaudit %s: run `go mod tidy` there", r.Mod.Path, v, r.Mod.Version)
			continue
		}
		if !strings.Contains(string(sum), r.Mod.Path+" "+v+" h1:") && !strings.Contains(string(sum), r.Mod.Path+" "+v+"/go.mod h1:") {
			t.Errorf("testdata/golangci/go.sum has no entry for %s %s: run `go mod tidy` there", r.Mod.Path, v)
		}
	}
}

func parseMod(t *testing.T, path string) *modfile.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
