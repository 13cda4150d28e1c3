package golangci

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
)

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatalf("default settings: %v", err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	if len(as) != 16 || names[0] != "LA101" || names[15] != "LA100" {
		t.Errorf("analyzers %v, want LA101..LA115 and LA100", names)
	}
}

// TestSettings: the plugin reads .lockaudit.yaml's keys, as golangci-lint
// hands them over (viper lower-cases map keys), and applies them.
func TestSettings(t *testing.T) {
	p, err := New(map[string]any{
		"target":    []any{"valkey-8.1", "valkey-9.0"},
		"rules":     map[string]any{"la108": "off", "LA110": "warning", "la111": false},
		"lock_keys": []any{"^mutex:"},
		"writers":   []any{"example.com/repo.Save"},
		"probe":     map[string]any{"timeout": "2s", "parallel": 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	if got := strings.Join(names, ","); strings.Contains(got, "LA108") || strings.Contains(got, "LA111") || !strings.Contains(got, "LA110") {
		t.Errorf("analyzers %s: LA108 and LA111 are off", got)
	}
	for _, a := range as {
		if a.Name == "LA112" {
			if got := a.Flags.Lookup("target").Value.String(); got != "valkey-8.1,valkey-9.0" {
				t.Errorf("LA112 target %q", got)
			}
		}
		if a.Name == "LA103" {
			if got := a.Flags.Lookup("lock-key-pattern").Value.String(); got != "^mutex:" {
				t.Errorf("LA103 lock-key-pattern %q", got)
			}
		}
	}
	// LA100 off drops the directive analyzer.
	p, err = New(map[string]any{"rules": map[string]any{"LA100": "off"}})
	if err != nil {
		t.Fatal(err)
	}
	as, _ = p.BuildAnalyzers()
	if len(as) != 15 || as[len(as)-1].Name == "LA100" {
		t.Errorf("with LA100 off: %d analyzers, last %s", len(as), as[len(as)-1].Name)
	}
}

// TestSettingsErrors: the same validation as the config file, naming the key.
func TestSettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings any
		want     string
	}{
		{"unknown key", map[string]any{"rulez": map[string]any{"LA103": "off"}}, where + ": rulez: unknown key (known keys: conform, fence_columns, fence_keys, lock_keys, probe, report, rules, scan, target, version, writers)"},
		{"wrong type", map[string]any{"lock_keys": map[string]any{"a": "b"}}, where + ": lock_keys: want a list of strings, got a mapping"},
		{"unknown rule", map[string]any{"rules": map[string]any{"la199": "off"}}, where + `: rules: unknown rule "la199"`},
		{"bad value", map[string]any{"rules": map[string]any{"LA103": "loud"}}, where + `: rules: LA103: want on, off, error, warning or info, got "loud"`},
		{"bad target", map[string]any{"target": "valkey-10.0"}, where + `: target: unknown target "valkey-10.0"`},
		{"nested unknown key", map[string]any{"probe": map[string]any{"adress": "x"}}, where + ": probe.adress: unknown key"},
		{"password refused", map[string]any{"probe": map[string]any{"password": "hunter2"}}, where + ": probe.password: passwords are never read"},
		{"not a mapping", []any{"a"}, where + ": want a mapping of keys, got a list"},
		{"every error, without lines", map[string]any{"rulez": "x", "target": "valkey-10.0"}, where + ": rulez: unknown key (known keys: conform, fence_columns, fence_keys, lock_keys, probe, report, rules, scan, target, version, writers)\n" + where + `: target: unknown target "valkey-10.0"`},
		{"rule by name", map[string]any{"rules": map[string]any{"plain-del-release": "loud"}}, where + `: rules: plain-del-release: want on, off, error, warning or info, got "loud"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.settings)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v\nwant %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error leaks the password")
			}
		})
	}
}

// markRE is a line the example marks with the rules it must report:
// "// LA103: ..." or "// LA102, LA108: ..." (as cmd/lockaudit's tests read it).
var markRE = regexp.MustCompile(`// (LA\d{3}(?:, LA\d{3})*): `)

// outRE is golangci-lint's text line for a lockaudit issue.
var outRE = regexp.MustCompile(`^(.+?\.go):(\d+):\d+: (LA\d{3}): (.*) \(lockaudit\)$`)

// TestGolangciLint builds golangci-lint v2.15.0 with this plugin from
// modules (testdata/golangci, what `golangci-lint custom` would build) and
// runs it on a copy of the bundled example with settings that change the
// findings and with two directives added: the findings must be the
// example's marks, adjusted for those.
func TestGolangciLint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint (about 1.5 minutes the first time, plus module downloads)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "custom-gcl")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "testdata", "golangci")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building testdata/golangci: %v\n%s", err, out)
	}

	mod := filepath.Join(tmp, "example")
	copyTree(t, filepath.Join("..", "..", "testdata", "example"), mod)

	// A reasoned directive above the first LA103 line suppresses it; a
	// file-ignore without a reason suppresses nothing and is an LA100
	// finding.
	file, line := firstMark(t, mod, "LA103")
	insertLine(t, filepath.Join(mod, file), line, "//lockaudit:ignore LA103 -- plugin test: the directive is honoured")
	insertLine(t, filepath.Join(mod, file), 1, "//lockaudit:file-ignore LA103")
	line += 2 // both insertions are above it

	cfg := `version: "2"
linters:
  default: none
  enable: [lockaudit]
  settings:
    custom:
      lockaudit:
        type: module
        description: distributed-lock checks for Valkey/Redis
        settings:
          target: [valkey-9.0, valkey-8.1]
          rules:
            LA108: off
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
output:
  formats:
    text:
      print-issued-lines: false
      colors: false
`
	if err := os.WriteFile(filepath.Join(mod, ".golangci.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr := lintRun(t, bin, mod, filepath.Join(tmp, "gcl-cache"))

	got := map[string]string{} // "file:line: RULE" -> message
	for _, l := range strings.Split(stdout.String(), "\n") {
		if m := outRE.FindStringSubmatch(l); m != nil {
			got[m[1]+":"+m[2]+": "+m[3]] = m[4]
		}
	}
	want := map[string]bool{}
	example := marks(t, mod)
	if len(example) < 10 {
		t.Errorf("only %d marks: the example's marks were not read", len(example))
	}
	for _, x := range example {
		if x.rule == "LA108" || (x.file == file && x.line == line && x.rule == "LA103") {
			continue // off in the settings; suppressed by the directive
		}
		if x.rule == "LA101" || x.rule == "LA102" {
			// valkey-8.1 among the targets has no native release: the
			// example's Lua release and its lock libraries' Lua steps are
			// the correct ones for that fleet (its extends would not be).
			continue
		}
		want[x.String()] = true
	}
	want[file+":1: LA100"] = true // the file-ignore without a reason
	var missing, extra []string
	for k := range want {
		if _, ok := got[k]; !ok {
			missing = append(missing, k)
		}
	}
	extraLA112 := 0
	for k, msg := range got {
		if want[k] {
			continue
		}
		// valkey-8.1 among the targets: DELIFEQ is a finding too.
		if strings.HasSuffix(k, ": LA112") && strings.Contains(msg, "DELIFEQ needs Valkey 9.0+, no Redis version, but valkey-8.1 lacks it") {
			extraLA112++
			continue
		}
		extra = append(extra, k+": "+msg)
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("golangci-lint with lockaudit:\nmissing:\n  %s\nextra:\n  %s\nstdout:\n%s\nstderr:\n%s",
			strings.Join(missing, "\n  "), strings.Join(extra, "\n  "), stdout.String(), stderr.String())
	}
	if extraLA112 == 0 {
		t.Errorf("the target setting had no effect: no LA112 for DELIFEQ on valkey-8.1\n%s", stdout.String())
	}
	if msg := got[file+":1: LA100"]; !strings.Contains(msg, "lockaudit directive has no reason") {
		t.Errorf("LA100 message %q", msg)
	}

	// golangci-lint's default, uniq-by-line: true, keeps one issue per
	// line: every line with two lockaudit findings loses one, which is why
	// the documentation sets it to false. With LA108 on and valkey-8.1
	// among the targets, a DELIFEQ release whose reply is ignored is both
	// LA108 and LA112.
	lint := func(cfg string) map[string]bool {
		if err := os.WriteFile(filepath.Join(mod, ".golangci.yml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, _ := lintRun(t, bin, mod, filepath.Join(tmp, "gcl-cache"))
		out := map[string]bool{}
		for _, l := range strings.Split(stdout.String(), "\n") {
			if m := outRE.FindStringSubmatch(l); m != nil {
				out[m[1]+":"+m[2]+": "+m[3]] = true
			}
		}
		return out
	}
	both := strings.Replace(cfg, "          rules:\n            LA108: off\n", "", 1)
	all := lint(both)
	byDefault := lint(strings.Replace(both, "  uniq-by-line: false\n", "", 1))
	lines := map[string]int{}
	for k := range all {
		lines[k[:strings.LastIndex(k, ": ")]]++
	}
	hidden := len(all) - len(lines)
	if hidden == 0 {
		t.Fatalf("no line has two findings: the uniq-by-line check proves nothing")
	}
	for k := range byDefault {
		if !all[k] {
			t.Errorf("with the default uniq-by-line, a finding the full run lacks: %s", k)
		}
	}
	if len(byDefault) != len(lines) {
		t.Errorf("the default uniq-by-line kept %d findings; want one per line, %d (it hides %d of %d)", len(byDefault), len(lines), hidden, len(all))
	}
	t.Logf("golangci-lint's default uniq-by-line hides %d of the %d findings here", hidden, len(all))

	// Lock facts flow between packages in golangci-lint too: the findings
	// of testdata/facts's dispatch exist only through the facts of its
	// helper packages.
	t.Run("facts", func(t *testing.T) {
		fmod := filepath.Join(tmp, "facts")
		copyTree(t, filepath.Join("..", "..", "testdata", "facts"), fmod)
		cfg := "version: \"2\"\nlinters:\n  default: none\n  enable: [lockaudit]\n  settings:\n    custom:\n      lockaudit:\n        type: module\n" +
			"issues:\n  max-issues-per-linter: 0\n  max-same-issues: 0\n  uniq-by-line: false\n" +
			"output:\n  formats:\n    text:\n      print-issued-lines: false\n      colors: false\n"
		if err := os.WriteFile(filepath.Join(fmod, ".golangci.yml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr := lintRun(t, bin, fmod, filepath.Join(tmp, "gcl-cache-facts"))
		got := map[string]bool{}
		for _, l := range strings.Split(stdout.String(), "\n") {
			if m := outRE.FindStringSubmatch(l); m != nil {
				got[m[1]+":"+m[2]+": "+m[3]] = true
			}
		}
		want := marks(t, fmod)
		if len(want) < 4 {
			t.Fatalf("testdata/facts marks only %v", want)
		}
		for _, m := range want {
			if !got[m.String()] {
				t.Errorf("missing %s", m)
			}
			delete(got, m.String())
		}
		for k := range got {
			t.Errorf("extra %s", k)
		}
		if t.Failed() {
			t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
	})
}

type mark struct {
	file string
	line int
	rule string
}

func (m mark) String() string { return m.file + ":" + strconv.Itoa(m.line) + ": " + m.rule }

func marks(t *testing.T, root string) []mark {
	t.Helper()
	var out []mark
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, l := range strings.Split(string(data), "\n") {
			if m := markRE.FindStringSubmatch(l); m != nil {
				for _, id := range strings.Split(m[1], ", ") {
					out = append(out, mark{filepath.ToSlash(rel), i + 1, id})
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// firstMark finds the first line marked with rule alone.
func firstMark(t *testing.T, root, rule string) (string, int) {
	t.Helper()
	for _, m := range marks(t, root) {
		if m.rule == rule {
			n := 0
			for _, o := range marks(t, root) {
				if o.file == m.file && o.line == m.line {
					n++
				}
			}
			if n == 1 {
				return m.file, m.line
			}
		}
	}
	t.Fatalf("the example marks no line with %s alone", rule)
	return "", 0
}

// insertLine inserts text as line n (1-based) of file.
func insertLine(t *testing.T, file string, n int, text string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	lines = append(lines[:n-1], append([]string{text}, lines[n-1:]...)...)
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lintRun runs `golangci-lint run ./...` in dir with its own cache and
// wants exit 1 (issues found): any other exit is the run's failure, named
// with its output, never read as a run with fewer findings. Each run has
// its own cache, so runs of other tests or checkouts on the same machine
// (which golangci-lint refuses by default, with a lock in the temp
// folder) are allowed.
func lintRun(t *testing.T, bin, dir, cache string) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	run := exec.Command(bin, "run", "--allow-parallel-runners", "./...")
	run.Dir = dir
	run.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+cache)
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	run.Stdout, run.Stderr = stdout, stderr
	err := run.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("golangci-lint run in %s: %v (want exit 1, issues found)\nstdout:\n%s\nstderr:\n%s", dir, err, stdout, stderr)
	}
	return stdout, stderr
}
