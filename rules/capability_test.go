package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func target(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseTarget(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCapabilityTable: every flavor with lines has a release for the
// acquire and for Lua, lines are known targets in order, and each since
// is a release of its own flavor.
func TestCapabilityTable(t *testing.T) {
	for _, fl := range Flavors() {
		row := capabilities[fl]
		if row.title == "" {
			t.Errorf("%s: no title", fl)
		}
		if len(row.lines) == 0 {
			if len(row.since) > 0 {
				t.Errorf("%s: capabilities without a release line", fl)
			}
			continue
		}
		for _, f := range []Feature{SetNXPX, Lua} {
			if _, ok := Since(f, fl); !ok {
				t.Errorf("%s: no release with %s", fl, f)
			}
		}
		for i := 1; i < len(row.lines); i++ {
			a, b := target(t, string(fl)+"-"+row.lines[i-1]), target(t, string(fl)+"-"+row.lines[i])
			if a.Compare(b) >= 0 {
				t.Errorf("%s: lines out of order: %s before %s", fl, a, b)
			}
		}
		for f, v := range firsts[fl] {
			if v.Flavor != fl {
				t.Errorf("%s %s: since %s", fl, f, v)
			}
		}
	}
	if _, err := ParseTarget("keydb-6.3"); err == nil {
		t.Errorf("a flavor without lines accepted as a target")
	}
}

// TestRemedies: what works where a feature is lacking. Redis is never told
// to release with DELIFEQ, Valkey before 9.2 never to release with DELEX
// unless its code already does.
func TestRemedies(t *testing.T) {
	show := func(from Version, rs []Remedy) string {
		var out []string
		for _, r := range rs {
			switch {
			case r.LoadLua:
				out = append(out, "load lua")
			case r.To.IsZero():
				out = append(out, "use "+string(r.Use))
			case r.Move(from):
				out = append(out, "move to "+r.To.Line()+" for "+string(r.Use))
			default:
				out = append(out, "upgrade to "+r.To.Line()+" for "+string(r.Use))
			}
		}
		return strings.Join(out, "; ")
	}
	for _, tc := range []struct {
		v    string
		f    Feature
		want string
	}{
		{"redis-8.6", DELIFEQ, "use DELEX; move to valkey-9.0 for DELIFEQ"},
		{"redis-7.0", DELIFEQ, "upgrade to redis-8.4 for DELEX; move to valkey-9.0 for DELIFEQ"},
		{"redis-7.0", DELEX, "upgrade to redis-8.4 for DELEX"},
		{"redis-8.2", SetIFEQ, "upgrade to redis-8.4 for SET IFEQ"},
		{"valkey-8.1", DELIFEQ, "upgrade to valkey-9.0 for DELIFEQ"},
		{"valkey-9.1", DELEX, "use DELIFEQ; upgrade to valkey-9.2 for DELEX"},
		{"valkey-8.1", DELEX, "upgrade to valkey-9.2 for DELEX; upgrade to valkey-9.0 for DELIFEQ"},
		{"valkey-8.0", SetIFEQ, "upgrade to valkey-8.1 for SET IFEQ"},
		{"valkey-9.1", Lua, "load lua; use DELIFEQ; use SET IFEQ"},
		{"redis-8.6", Lua, "load lua; use DELEX; use SET IFEQ"},
		{"redis-7.2", WAITAOF, ""},
		{"redis-7.0", WAITAOF, "upgrade to redis-7.2 for WAITAOF"},
	} {
		v := target(t, tc.v)
		if got := show(v, Remedies(v, tc.f)); got != tc.want {
			t.Errorf("Remedies(%s, %s) = %q, want %q", tc.v, tc.f, got, tc.want)
		}
	}
	for _, v := range Lines() {
		for _, f := range Features() {
			if Supports(v, f) && f != Lua {
				continue
			}
			for _, r := range Remedies(v, f) {
				if v.Flavor == Redis && r.Use == DELIFEQ && !r.Move(v) {
					t.Errorf("%s lacking %s: %+v tells Redis to use DELIFEQ", v, f, r)
				}
				if v.Flavor == Valkey && f != DELEX && r.Use == DELEX && !r.To.IsZero() && r.To.Flavor == Valkey && !Supports(v, DELEX) {
					t.Errorf("%s lacking %s: %+v names DELEX before 9.2", v, f, r)
				}
				if !r.LoadLua && r.To.IsZero() && !Supports(v, r.Use) {
					t.Errorf("%s lacking %s: %+v uses what it lacks", v, f, r)
				}
			}
		}
	}
}

// TestOneTableOfFirstReleases: the first release of a command is written
// in the capability table only. No other Go source of the module (tests,
// the runs report's tests share in report/internal/fixture, and the
// generated catalog prose aside) writes one: a version literal
// such as "9.0" or "8.4.0", a Version literal, or a requirement such as
// "Valkey 9.0+" in a message.
func TestOneTableOfFirstReleases(t *testing.T) {
	var versions []string
	for _, fl := range Flavors() {
		for _, s := range capabilities[fl].since {
			v, _ := ParseVersion(fl, s)
			versions = append(versions, regexp.QuoteMeta(fmt.Sprintf("%d.%d", v.Major, v.Minor)))
		}
	}
	// A version string, or Major/Minor fields, in code (not a comment).
	vs := `(` + strings.Join(versions, "|") + `)`
	deciding := regexp.MustCompile(`"` + vs + `(\.0)?"|Major: *\d+, *Minor: *\d+|(?i:valkey|redis) ` + vs + `\+`)
	eachCodeLine(t, func(rel string) bool { return filepath.Base(rel) == "capability.go" }, func(rel string, n int, line, code string) {
		if deciding.MatchString(code) {
			t.Errorf("%s:%d: a version written outside rules/capability.go: %s", rel, n, strings.TrimSpace(line))
		}
	})
}

// eachCodeLine calls check with every line of the module's Go source but
// tests, testdata, report/internal/fixture (the runs report's tests
// share), the generated catalog_data.go and the files skip names: its
// path relative to the module root, its number, the line, and the line
// without its // comment.
func eachCodeLine(t *testing.T, skip func(rel string) bool, check func(rel string, n int, line, code string)) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || path == filepath.Join(root, "report", "internal", "fixture")) {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "catalog_data.go" || skip(rel) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			check(rel, i+1, line, code)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
