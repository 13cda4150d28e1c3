package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// redigoModule writes a module that imports the real redigo (from the module
// cache, fetched for the bundled example), with files added.
func redigoModule(t *testing.T, files map[string]string) string {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join(example, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, "github.com/gomodule/redigo v1.9.3") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("the example's go.sum has no redigo v1.9.3 lines: %v", lines)
	}
	all := map[string]string{
		"go.mod": "module example.com/fx\n\ngo 1.26.0\n\nrequire github.com/gomodule/redigo v1.9.3\n",
		"go.sum": strings.Join(lines, "\n") + "\n",
	}
	for k, v := range files {
		all[k] = v
	}
	return writeModule(t, all)
}

// lockSrc has one finding of each kind the config tests turn on and off.
const lockSrc = `package svc

import "github.com/gomodule/redigo/redis"

func Release(conn redis.Conn, token string) {
	conn.Do("DEL", "lock:a")
	conn.Do("DEL", "mutex:b")
	conn.Do("DELIFEQ", "lock:c", token)
}
`

// got runs vet -format json and returns "line:RULE" of every active
// finding, sorted, with the run.
func vetJSON(t *testing.T, args ...string) ([]string, *report.Run, int, string) {
	t.Helper()
	stdout, stderr, code := runCLI(t, append([]string{"vet", "-format", "json"}, args...)...)
	if code == report.ExitUsage || code == report.ExitFailed {
		return nil, nil, code, stderr
	}
	var run report.Run
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatalf("vet %v: %v\n%s\n%s", args, err, stdout, stderr)
	}
	var out []string
	for _, f := range run.Active() {
		out = append(out, strconv.Itoa(f.Pos.Line)+":"+string(f.Rule))
	}
	sort.Strings(out)
	return out, &run, code, stderr
}

func TestConfigChangesTheRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string // "" = no file
		flags  []string
		want   string
		msg    string // a substring of some finding's message
	}{
		{"no config", "", nil, "6:LA103 8:LA108", ""},
		{"target", "target: valkey-8.1\n", nil, "6:LA103 8:LA108 8:LA112", "but the target is valkey-8.1"},
		{"several targets", "target: [valkey-9.0, valkey-8.1]\n", nil, "6:LA103 8:LA108 8:LA112", "but valkey-8.1 lacks it"},
		{"-target wins", "target: valkey-8.1\n", []string{"-target", "valkey-9.0"}, "6:LA103 8:LA108", ""},
		{"-target list", "", []string{"-target", "valkey-9.0,redis-8.4"}, "6:LA103 8:LA108 8:LA112", "but redis-8.4 lacks it"},
		{"rule off", "rules:\n  LA108: off\n", nil, "6:LA103", ""},
		{"-rules wins", "rules:\n  LA108: off\n", []string{"-rules", "LA108"}, "8:LA108", ""},
		{"-rules edits the file's", "rules:\n  LA108: off\n", []string{"-rules", "-LA103"}, "", ""},
		{"lock_keys replace the default", "lock_keys: ['^mutex:']\n", nil, "7:LA103 8:LA108", `plain DEL of lock key "mutex:b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"svc/svc.go": lockSrc}
			if tc.config != "" {
				files[".lockaudit.yaml"] = tc.config
			}
			mod := redigoModule(t, files)
			got, run, code, stderr := vetJSON(t, append(append([]string{"-C", mod}, tc.flags...), "./...")...)
			if run == nil {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("findings %q, want %q", g, tc.want)
			}
			if tc.msg != "" {
				found := false
				for _, f := range run.Findings {
					found = found || strings.Contains(f.Message, tc.msg)
				}
				if !found {
					t.Errorf("no finding says %q: %+v", tc.msg, run.Findings)
				}
			}
			wantCode := report.ExitFindings
			if tc.want == "" {
				wantCode = report.ExitOK
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
		})
	}
}

// TestConfigDoesNotLeakBetweenRuns: analyzer settings are process state;
// a run without a config after one with it sees the defaults again.
func TestConfigDoesNotLeakBetweenRuns(t *testing.T) {
	with := redigoModule(t, map[string]string{"svc/svc.go": lockSrc, ".lockaudit.yaml": "target: valkey-8.1\nlock_keys: ['^mutex:']\n"})
	without := redigoModule(t, map[string]string{"svc/svc.go": lockSrc})
	a, _, _, _ := vetJSON(t, "-C", with, "./...")
	b, _, _, _ := vetJSON(t, "-C", without, "./...")
	c, _, _, _ := vetJSON(t, "-C", with, "./...")
	if strings.Join(a, " ") != "7:LA103 8:LA108 8:LA112" || strings.Join(c, " ") != strings.Join(a, " ") {
		t.Errorf("with the config: %v, then %v", a, c)
	}
	if strings.Join(b, " ") != "6:LA103 8:LA108" {
		t.Errorf("without a config after a run with one: %v (settings leaked)", b)
	}
}

func TestConfigSeverityOverride(t *testing.T) {
	def := rules.MustGet("LA108").Severity
	want := rules.Info
	if def == rules.Info {
		want = rules.Error
	}
	mod := redigoModule(t, map[string]string{"svc/svc.go": lockSrc, ".lockaudit.yaml": "rules:\n  LA108: " + want.String() + "\n"})
	_, run, _, _ := vetJSON(t, "-C", mod, "./...")
	for _, f := range run.Findings {
		switch f.Rule {
		case "LA108":
			if f.Severity != want {
				t.Errorf("LA108 severity %s, want %s from the config", f.Severity, want)
			}
		case "LA103":
			if f.Severity != rules.MustGet("LA103").Severity {
				t.Errorf("LA103 severity changed to %s", f.Severity)
			}
		}
	}
	stdout, _, _ := runCLI(t, "vet", "-C", mod, "-format", "sarif", "./...")
	if !regexp.MustCompile(`"ruleId": "LA108",\s*"ruleIndex": \d+,\s*"level": "` + want.SARIFLevel() + `"`).MatchString(stdout) {
		t.Errorf("SARIF result level of LA108 is not %s:\n%s", want.SARIFLevel(), stdout)
	}
}

// TestConfigFound: the file is found walking up from -C (or the working
// directory), or named with -config (relative to -C).
func TestConfigFound(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": lockSrc, ".lockaudit.yaml": "rules:\n  LA108: off\n", "other.yaml": "rules:\n  LA103: off\n"})
	if got, _, _, stderr := vetJSON(t, "-C", filepath.Join(mod, "svc"), "."); strings.Join(got, " ") != "6:LA103" {
		t.Errorf("from a subdirectory: %v %s", got, stderr)
	}
	if got, _, _, stderr := vetJSON(t, "-C", mod, "-config", "other.yaml", "./..."); strings.Join(got, " ") != "8:LA108" {
		t.Errorf("-config other.yaml: %v %s", got, stderr)
	}
}

// TestConfigErrors: a bad config file is exit 2 with file, line and key.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{"unknown key", "version: 1\nrulez:\n  LA103: off\n", `.lockaudit.yaml:2: rulez: unknown key`},
		{"wrong type", "target: valkey-9.0\nlock_keys:\n  a: b\n", `.lockaudit.yaml:3: lock_keys: want a list of strings, got a mapping`},
		{"unknown rule", "rules:\n  LA103: off\n  LA199: warning\n", `.lockaudit.yaml:3: rules: unknown rule "LA199"`},
		{"bad target", "target: [valkey-9.0, valkey-9.9]\n", `.lockaudit.yaml:1: target: unknown target "valkey-9.9"`},
		{"every rule off", everyAnalyzerOff(), "rules: every code rule is off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := redigoModule(t, map[string]string{"svc/svc.go": lockSrc, ".lockaudit.yaml": tc.config})
			stdout, stderr, code := runCLI(t, "vet", "-C", mod, "./...")
			if code != report.ExitUsage {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr, filepath.Join(mod, tc.want)) && !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr does not say %q:\n%s", tc.want, stderr)
			}
			if !strings.Contains(stderr, filepath.Join(mod, config.FileName)) {
				t.Errorf("stderr does not name the file:\n%s", stderr)
			}
			if stdout != "" {
				t.Errorf("no report may be written: %q", stdout)
			}
		})
	}
	mod := redigoModule(t, map[string]string{"svc/svc.go": lockSrc})
	if _, stderr, code := runCLI(t, "vet", "-C", mod, "-config", "nope.yaml", "./..."); code != report.ExitUsage || !strings.Contains(stderr, "nope.yaml") {
		t.Errorf("-config of a missing file: exit %d %s", code, stderr)
	}
}

const directiveSrc = `package svc

import "github.com/gomodule/redigo/redis"

func Release(conn redis.Conn, token string) {
	conn.Do("DEL", "lock:a")
	conn.Do("DEL", "lock:b") //lockaudit:ignore LA103 -- admin reset, the holder is dead

	//lockaudit:ignore LA103 -- the line above
	conn.Do("DEL", "lock:c")

	conn.Do("DEL", "lock:d") //lockaudit:ignore LA103
	conn.Do("DEL", "lock:e") //lockaudit:ignore LA199 -- no such rule

	//lockaudit:ignore LA114 -- stale: no LA114 here
	conn.Do("DEL", "lock:f")
}
`

const fileIgnoreSrc = `//lockaudit:file-ignore LA108 -- replies are checked by the caller
package svc

import "github.com/gomodule/redigo/redis"

func Other(conn redis.Conn, token string) {
	conn.Do("DELIFEQ", "lock:g", token)
	conn.Do("DELIFEQ", "lock:h", token)
}
`

func TestDirectives(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": directiveSrc, "svc/other.go": fileIgnoreSrc,
		"svc/svc_test.go": "package svc\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) {}\n"})
	got, run, code, stderr := vetJSON(t, "-C", mod, "./...")
	if run == nil {
		t.Fatalf("exit %d %s", code, stderr)
	}
	want := "12:LA100 12:LA103 13:LA100 13:LA103 15:LA100 16:LA103 6:LA103"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("active findings %q\nwant %q", g, want)
	}
	// -tests analyses svc twice (svc and svc [svc.test]): each directive
	// still counts once, and none looks stale.
	if g, _, _, _ := vetJSON(t, "-C", mod, "-tests", "./..."); strings.Join(g, " ") != want {
		t.Errorf("-tests: active findings %q\nwant %q", strings.Join(g, " "), want)
	}
	msgs := map[string]string{}
	supp := map[string]report.Suppression{}
	for _, f := range run.Findings {
		key := f.Pos.File + ":" + strconv.Itoa(f.Pos.Line) + ":" + string(f.Rule)
		msgs[key] = f.Message
		if f.Suppressed != nil {
			supp[key] = *f.Suppressed
		}
	}
	for key, want := range map[string]string{
		"svc/svc.go:12:LA100": "has no reason",
		"svc/svc.go:13:LA100": `names unknown rule "LA199"`,
		"svc/svc.go:15:LA100": "suppresses nothing: no LA114 finding here",
	} {
		if !strings.Contains(msgs[key], want) {
			t.Errorf("%s: message %q, want it to say %q", key, msgs[key], want)
		}
	}
	for key, why := range map[string]string{
		"svc/svc.go:7:LA103":   "admin reset, the holder is dead",
		"svc/svc.go:10:LA103":  "the line above",
		"svc/other.go:7:LA108": "replies are checked by the caller",
		"svc/other.go:8:LA108": "replies are checked by the caller",
	} {
		if s, ok := supp[key]; !ok || s.Kind != "inSource" || s.Justification != why {
			t.Errorf("%s: suppression %+v, want inSource %q", key, s, why)
		}
	}
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3", code)
	}
	if !strings.Contains(run.Rules[0], "LA100") {
		t.Errorf("LA100 is not among the rules that ran: %v", run.Rules)
	}

	// Text hides suppressed findings unless -show-suppressed.
	stdout, stderr, _ := runCLI(t, "vet", "-C", mod, "./...")
	if strings.Contains(stdout, "svc/svc.go:7:") || !strings.Contains(stderr, "4 suppressed") {
		t.Errorf("text shows a suppressed finding or the summary lacks the count:\n%s%s", stdout, stderr)
	}
	stdout, stderr, code2 := runCLI(t, "vet", "-C", mod, "-show-suppressed", "./...")
	if !regexp.MustCompile(`(?m)^svc/svc\.go:7:2: LA103 .*\[suppressed in source: admin reset, the holder is dead\]$`).MatchString(stdout) ||
		!regexp.MustCompile(`(?m)^svc/other\.go:7:2: LA108 .*\[suppressed in source: replies are checked by the caller\]$`).MatchString(stdout) {
		t.Errorf("-show-suppressed does not show them with the reason:\n%s", stdout)
	}
	if code2 != code || !strings.Contains(stderr, "4 suppressed") {
		t.Errorf("-show-suppressed changed the exit code (%d) or the summary: %s", code2, stderr)
	}

	// A subset of rules does not make the other rules' directives stale;
	// malformed directives are still reported.
	got, _, _, _ = vetJSON(t, "-C", mod, "-rules", "LA108", "./...")
	if g := strings.Join(got, " "); g != "12:LA100 13:LA100" {
		t.Errorf("-rules LA108: %q, want only the malformed directives", g)
	}
	// -rules -LA100 silences the directive findings; suppression stays.
	got, _, _, _ = vetJSON(t, "-C", mod, "-rules", "-LA100", "./...")
	if g := strings.Join(got, " "); g != "12:LA103 13:LA103 16:LA103 6:LA103" {
		t.Errorf("-rules -LA100: %q", g)
	}
}

// TestDirectivesAllSuppressedExitsZero: a run whose every finding is
// suppressed with a reason passes.
func TestDirectivesAllSuppressedExitsZero(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": `package svc

import "github.com/gomodule/redigo/redis"

func Reset(conn redis.Conn) {
	conn.Do("DEL", "lock:a") //lockaudit:ignore LA103 -- admin reset endpoint
}
`})
	_, stderr, code := runCLI(t, "vet", "-C", mod, "./...")
	if code != report.ExitOK || !strings.Contains(stderr, "no findings, 1 suppressed") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestBaseline(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": directiveSrc})
	stdout, stderr, code := runCLI(t, "vet", "-C", mod, "-write-baseline", "lockaudit-baseline.json", "./...")
	if code != report.ExitOK || stdout != "" {
		t.Errorf("-write-baseline: exit %d, stdout %q (the recorded findings are baselined at once)\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "baseline of 7 findings written to lockaudit-baseline.json") {
		t.Errorf("stderr: %s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(mod, "lockaudit-baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"line": 7,`) || !strings.Contains(string(data), `"rule": "LA100"`) {
		t.Errorf("the baseline must hold the active findings only (LA100 included, not the suppressed line 7):\n%s", data)
	}

	// Unchanged code: nothing new.
	_, stderr, code = runCLI(t, "vet", "-C", mod, "-baseline", "lockaudit-baseline.json", "./...")
	if code != report.ExitOK || !strings.Contains(stderr, "no findings, 9 suppressed") {
		t.Errorf("with the baseline: exit %d %s", code, stderr)
	}

	// Edits move the old findings; only the new DEL is reported.
	edited := strings.Replace(directiveSrc, "func Release(", "// A new comment.\n\nfunc Release(", 1)
	edited = strings.Replace(edited, "\tconn.Do(\"DEL\", \"lock:a\")\n", "\tconn.Do(\"DEL\", \"lock:a\")\n\tconn.Do(\"DEL\", \"lock:new\")\n", 1)
	if err := os.WriteFile(filepath.Join(mod, "svc", "svc.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	got, run, code, _ := vetJSON(t, "-C", mod, "-baseline", "lockaudit-baseline.json", "./...")
	if strings.Join(got, " ") != "9:LA103" || code != report.ExitFindings {
		t.Errorf("after an edit: %v exit %d, want only the new line 9", got, code)
	}
	ext := 0
	for _, f := range run.Findings {
		if f.Suppressed != nil && f.Suppressed.Kind == "external" {
			ext++
			if f.Suppressed.Justification != "in baseline lockaudit-baseline.json" {
				t.Errorf("justification %q", f.Suppressed.Justification)
			}
		}
	}
	if ext != 7 {
		t.Errorf("%d findings suppressed by the baseline, want 7", ext)
	}
}

func TestBaselineErrors(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": lockSrc,
		"v2.json":  `{"version": 2, "tool": "lockaudit", "findings": []}`,
		"bad.json": `{"version": 1, "findings": [`,
	})
	for _, tc := range []struct{ file, want string }{
		{"missing.json", "missing.json"},
		{"v2.json", "v2.json: baseline version 2, this lockaudit reads version 1"},
		{"bad.json", "bad.json: not a lockaudit baseline"},
	} {
		stdout, stderr, code := runCLI(t, "vet", "-C", mod, "-baseline", tc.file, "./...")
		if code != report.ExitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("-baseline %s: exit %d, stderr %q, want 2 and %q", tc.file, code, stderr, tc.want)
		}
	}
	// An incomplete run does not write a baseline (it would miss findings).
	broken := redigoModule(t, map[string]string{"svc/svc.go": lockSrc, "bad/bad.go": "package bad\n\nvar x int = \"s\"\n"})
	_, stderr, code := runCLI(t, "vet", "-C", broken, "-write-baseline", "b.json", "./...")
	if code != report.ExitFailed || !strings.Contains(stderr, "not writing the baseline b.json: the run is incomplete") {
		t.Errorf("-write-baseline of a broken module: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(broken, "b.json")); err == nil {
		t.Error("a baseline was written for an incomplete run")
	}
}

// TestSARIFWithSuppressionsAndBaseline: the SARIF of a run with in-source
// suppressions and a baseline still validates (schema, and GitHub's rules
// through the Multitool when available), and carries both kinds.
func TestSARIFWithSuppressionsAndBaseline(t *testing.T) {
	mod := redigoModule(t, map[string]string{"svc/svc.go": directiveSrc, "svc/other.go": fileIgnoreSrc})
	if _, stderr, code := runCLI(t, "vet", "-C", mod, "-rules", "LA103", "-write-baseline", "base.json", "./..."); code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "vet", "-C", mod, "-baseline", "base.json", "-format", "sarif", "./...")
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3 (the stale LA114 directive is judged only now that LA114 runs): %s", code, stderr)
	}
	if err := sarifcheck.Validate([]byte(stdout)); err != nil {
		t.Errorf("SARIF does not validate: %v\n%s", err, stdout)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct {
					Kind, Justification string
				} `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, r := range log.Runs[0].Results {
		for _, s := range r.Suppressions {
			kinds[s.Kind+": "+s.Justification]++
		}
	}
	// The baseline holds the 4 active LA103 findings and the 2 malformed
	// directives (LA100).
	if kinds["inSource: admin reset, the holder is dead"] != 1 || kinds["inSource: replies are checked by the caller"] != 2 || kinds["external: in baseline base.json"] != 6 {
		t.Errorf("suppressions: %v", kinds)
	}
	sarifcheck.Multitool(t, []byte(stdout))
}

// TestConfigInfoDoesNotFail: lowering a rule to info keeps it in the report
// but no longer fails the run; a warning still does.
func TestConfigInfoDoesNotFail(t *testing.T) {
	src := `package svc

import "github.com/gomodule/redigo/redis"

func Release(conn redis.Conn) {
	conn.Do("DEL", "lock:a")
}
`
	for _, tc := range []struct {
		sev  string
		want int
	}{{"info", report.ExitOK}, {"warning", report.ExitFindings}, {"error", report.ExitFindings}} {
		mod := redigoModule(t, map[string]string{"svc/svc.go": src, ".lockaudit.yaml": "rules:\n  LA103: " + tc.sev + "\n"})
		got, run, code, stderr := vetJSON(t, "-C", mod, "./...")
		if strings.Join(got, " ") != "6:LA103" || run.Findings[0].Severity.String() != tc.sev {
			t.Errorf("LA103 at %s: findings %v (%s)", tc.sev, got, stderr)
		}
		if code != tc.want {
			t.Errorf("LA103 at %s: exit %d, want %d", tc.sev, code, tc.want)
		}
	}
}

// everyAnalyzerOff is a config's rules: key that turns off every code rule
// with an analyzer (LA100 judges directives and stays on), from the
// catalog, so a new rule needs no edit here.
func everyAnalyzerOff() string {
	var off []string
	for _, r := range rules.ByKind(rules.Code) {
		if r.ID != directive.RuleID {
			off = append(off, string(r.ID)+": off")
		}
	}
	return "rules: {" + strings.Join(off, ", ") + "}\n"
}
