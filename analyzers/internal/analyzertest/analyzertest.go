// Package analyzertest runs the analyzers' tests: analysistest over the
// fixture packages that sit beside each test (its ./testdata/src) together
// with the client stubs every test shares (analyzers/testdata/src: small
// packages at the real import paths of go-redis, valkey-go, redigo ...),
// for one run's settings.
package analyzertest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Run runs the analyzer with settings s (nil: the defaults) on the fixture
// packages pkgs (import paths under ./testdata/src) and checks their
// `// want` comments, as analysistest.Run does.
func Run(t *testing.T, a *analysis.Analyzer, s *settings.Settings, pkgs ...string) []*analysistest.Result {
	t.Helper()
	return analysistest.Run(t, Dir(t), bind(a, s), pkgs...)
}

// Settings returns the defaults with options set as their flags would
// ("target", "redis-8.4"; a pattern's first value replaces the default).
func Settings(t *testing.T, nameValues ...string) *settings.Settings {
	t.Helper()
	s := settings.Default()
	for i := 0; i+1 < len(nameValues); i += 2 {
		if err := s.Set(nameValues[i], nameValues[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// bind returns the analyzer as a run with settings s sees it.
func bind(a *analysis.Analyzer, s *settings.Settings) *analysis.Analyzer {
	return driver.Wrap([]*analysis.Analyzer{a}, s, nil)[0]
}

// Dir returns a GOPATH-style root whose src holds the test's fixtures
// (./testdata/src) and the client stubs: a temporary directory of links,
// or the stubs' own root for the tests that sit next to it.
func Dir(t *testing.T) string {
	t.Helper()
	stubs := Stubs(t)
	own, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if own == stubs {
		return stubs
	}
	root := t.TempDir()
	src := filepath.Join(root, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(stubs, "src"), filepath.Join(own, "src")} {
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, e := range entries {
			if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(src, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// Stubs returns the root of the client stubs (analyzers/testdata), found
// from the test's directory inside the module.
func Stubs(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "analyzers", "testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("analyzertest: no go.mod above the test's directory")
		}
		dir = parent
	}
}
