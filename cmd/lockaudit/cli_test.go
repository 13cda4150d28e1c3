package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
)

// example is the bundled example module, relative to this package.
const example = "../../testdata/example"

// runCLI runs lockaudit in-process, in this package's directory.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: os.Getenv, Dir: dir})
	return out.String(), errb.String(), code
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// lockauditBinary builds cmd/lockaudit once per test run.
func lockauditBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "lockaudit-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "lockaudit")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			binPath = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build ./cmd/lockaudit: %v\n%s", buildErr, binPath)
	}
	return binPath
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binPath != "" && buildErr == nil {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// expectation is one finding the example's source promises: a line
// commented "// LA103: ..." (or "// LA102, LA108: ...").
type expectation struct {
	File string
	Line int
	Rule rules.ID
}

func (x expectation) String() string {
	return x.File + ":" + strconv.Itoa(x.Line) + ": " + string(x.Rule)
}

var markRE = regexp.MustCompile(`// (LA\d{3}(?:, LA\d{3})*): `)

// exampleExpectations reads the rule marks in the example's Go files.
func exampleExpectations(t *testing.T) []expectation {
	t.Helper()
	out := markedExpectations(t, example)
	// The example is meant to show many rules; a mark-reading bug must
	// not make the comparison vacuous.
	rules := map[string]bool{}
	for _, x := range out {
		rules[string(x.Rule)] = true
	}
	if len(rules) < 10 {
		t.Fatalf("the example marks only %d rules (%v); want at least 10", len(rules), out)
	}
	return out
}

// markedExpectations reads the rule marks in the Go files under dir.
func markedExpectations(t *testing.T, dir string) []expectation {
	t.Helper()
	var out []expectation
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for i, line := range strings.Split(string(data), "\n") {
			m := markRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for _, id := range strings.Split(m[1], ", ") {
				out = append(out, expectation{File: filepath.ToSlash(rel), Line: i + 1, Rule: rules.ID(id)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sortExpectations(out)
	return out
}

func sortExpectations(xs []expectation) {
	sort.Slice(xs, func(i, j int) bool { return xs[i].String() < xs[j].String() })
}

// findingRE matches vet's text output: file:line:col: RULE message.
var findingRE = regexp.MustCompile(`^(.+?):(\d+):\d+: (LA\d{3}) `)

// parseFindings reads the findings in vet text output, with prefix cut
// from the file names.
func parseFindings(t *testing.T, text string, prefix string) []expectation {
	t.Helper()
	var out []expectation
	for _, line := range strings.Split(text, "\n") {
		m := findingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		file := strings.TrimPrefix(filepath.ToSlash(m[1]), prefix)
		n, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("bad line number in %q", line)
		}
		out = append(out, expectation{File: file, Line: n, Rule: rules.ID(m[3])})
	}
	sortExpectations(out)
	return out
}

func diffExpectations(want, got []expectation) (missing, extra []string) {
	w := map[string]int{}
	for _, x := range want {
		w[x.String()]++
	}
	for _, x := range got {
		if w[x.String()] > 0 {
			w[x.String()]--
			continue
		}
		extra = append(extra, x.String())
	}
	for k, n := range w {
		for ; n > 0; n-- {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}
