// Package analyzertest runs the analyzers' tests: analysistest over the
// fixture packages that sit beside each test (its ./testdata/src) together
// with the client stubs every test shares (analyzers/testdata/src: small
// packages at the real import paths of go-redis, valkey-go, redigo ...),
// for one run's settings.
package analyzertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/internal/ruleutil"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Run runs the analyzer with settings s (nil: the defaults) on the fixture
// packages pkgs (import paths under ./testdata/src) and checks their
// `// want` comments, as analysistest.Run does, and that every message is
// short (CheckMessages).
func Run(t *testing.T, a *analysis.Analyzer, s *settings.Settings, pkgs ...string) []*analysistest.Result {
	t.Helper()
	results := analysistest.Run(t, Dir(t), bind(a, s), pkgs...)
	CheckMessages(t, results)
	return results
}

// CheckMessages fails the test for a diagnostic longer than
// ruleutil.MaxMessage characters or holding a control character: a
// diagnostic says what is wrong here and the fix in one short sentence,
// printable as it is.
func CheckMessages(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Action.Package.Fset.Position(d.Pos)
			if n := utf8.RuneCountInString(d.Message); n > ruleutil.MaxMessage {
				t.Errorf("%s: %s message has %d characters, more than %d: %s", p, d.Category, n, ruleutil.MaxMessage, d.Message)
			}
			if strings.ContainsFunc(d.Message, unicode.IsControl) {
				t.Errorf("%s: %s message holds a control character: %q", p, d.Category, d.Message)
			}
		}
	}
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

// Diagnostics runs the analyzer with settings s on a fixture package that
// has no `// want` comments and returns its messages by "file.go:line", for
// a test that compares them with a table (the same fixture under several
// settings, such as the -target families). Every message is held to
// CheckMessages; a fixture that does not load fails the test.
func Diagnostics(t *testing.T, a *analysis.Analyzer, s *settings.Settings, pkg string) map[string]string {
	t.Helper()
	rec := &recorder{t: t}
	results := analysistest.Run(rec, Dir(t), bind(a, s), pkg)
	if len(results) == 0 {
		t.Fatalf("%s: no results (see the errors above)", pkg)
	}
	CheckMessages(t, results)
	out := map[string]string{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			p := r.Action.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			if prev, dup := out[key]; dup {
				t.Errorf("%s: two diagnostics: %q and %q", key, prev, d.Message)
			}
			out[key] = d.Message
		}
	}
	return out
}

// recorder passes analysistest's errors on to the test, except the
// "unexpected diagnostic" ones of a fixture without want comments.
type recorder struct{ t *testing.T }

func (r *recorder) Errorf(format string, args ...any) {
	r.t.Helper()
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, ": unexpected diagnostic: ") {
		r.t.Errorf("%s", msg)
	}
}

// SameDiagnostics compares Diagnostics' result with the messages a test
// wants, by "file.go:line".
func SameDiagnostics(t *testing.T, got, want map[string]string) {
	t.Helper()
	for at, w := range want {
		switch g, ok := got[at]; {
		case !ok:
			t.Errorf("%s: no finding, want %q", at, w)
		case g != w:
			t.Errorf("%s: got  %q\n\twant %q", at, g, w)
		}
	}
	for at, g := range got {
		if _, ok := want[at]; !ok {
			t.Errorf("%s: unexpected finding %q", at, g)
		}
	}
}
