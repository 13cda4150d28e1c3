package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// captureFlagSets runs f and returns the flag sets the commands built.
var hookMu sync.Mutex

func captureFlagSets(f func()) []*flag.FlagSet {
	hookMu.Lock()
	defer hookMu.Unlock()
	var sets []*flag.FlagSet
	flagSetHook = func(fs *flag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetHook = nil }()
	f()
	return sets
}

// TestHelpPages: for every command, `help CMD`, `CMD -h`, `CMD -help` and
// `CMD --help` print the same page on stdout, nothing on stderr, and exit
// 0; the page has the summary, the usage, every flag the command accepts
// with its description, examples of the command and its exit codes.
func TestHelpPages(t *testing.T) {
	if len(commands) < 10 {
		t.Fatalf("only %d commands registered", len(commands))
	}
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			c := commands[name]
			var page string
			sets := captureFlagSets(func() {
				var stderr string
				var code int
				page, stderr, code = runCLI(t, "help", name)
				if code != 0 || stderr != "" {
					t.Fatalf("help %s: exit %d, stderr %q", name, code, stderr)
				}
			})
			variants := [][]string{{name, "-h"}, {name, "-help"}, {name, "--help"}}
			if name == "config" {
				variants = append(variants, []string{"config", "init", "-h"}, []string{"config", "check", "--help"})
			}
			for _, args := range variants {
				out, stderr, code := runCLI(t, args...)
				if code != 0 || stderr != "" || out != page {
					t.Errorf("%q: exit %d, stderr %q, and its page differs from help %s:\n%s", args, code, stderr, name, firstDiff(out, page))
				}
			}
			for _, want := range []string{"lockaudit " + name + ": " + c.Summary + "\n", "\nUsage:\n  lockaudit ", "\nExamples:\n  lockaudit ", "\nExit status:\n  0 "} {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %q:\n%s", want, page)
				}
			}
			if !strings.Contains(page, "\n  130  interrupted (Ctrl-C)") {
				t.Errorf("the page does not say what an interrupted run exits with:\n%s", page)
			}
			if !strings.Contains(c.Exit, "2 ") {
				t.Errorf("the exit codes do not say what a usage error exits with:\n%s", c.Exit)
			}
			for _, ex := range strings.Split(c.Examples, "\n") {
				if !strings.Contains(ex, "lockaudit ") || !strings.Contains(ex, name) {
					t.Errorf("example %q does not run lockaudit %s", ex, name)
				}
			}
			flags := 0
			for _, fs := range sets {
				fs.VisitAll(func(f *flag.Flag) {
					flags++
					_, usage := flag.UnquoteUsage(f)
					if !strings.Contains(page, "\n  -"+f.Name+" ") && !strings.Contains(page, "\n  -"+f.Name+"\n") && !strings.Contains(page, "\n  -"+f.Name+"\t") {
						t.Errorf("the page does not list -%s", f.Name)
					}
					// "(default: KEY)" is printed merged with the default (printFlags).
					usage = configDefault.ReplaceAllString(usage, "(default ")
					if usage == "" || !strings.Contains(page, usage) {
						t.Errorf("the page lacks the description of -%s (%q)", f.Name, usage)
					}
				})
			}
			if name != "explain" && name != "version" && flags == 0 {
				t.Errorf("no flags seen: the flag sets were not captured")
			}
		})
	}
}

// TestHelpTopics: `help` and -h alone print the command list (exit 0);
// lockaudit alone prints it on stderr (exit 2); an unknown topic, or two,
// exit 2 naming the topics.
func TestHelpTopics(t *testing.T) {
	overview, stderr, code := runCLI(t, "help")
	if code != 0 || stderr != "" || !strings.Contains(overview, "Commands:\n") || !strings.Contains(overview, "lockaudit demo -offline") {
		t.Fatalf("help: exit %d, stderr %q\n%s", code, stderr, overview)
	}
	for _, name := range commandNames() {
		if !strings.Contains(overview, "  "+name+" ") {
			t.Errorf("the command list lacks %s", name)
		}
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"help", "help"}} {
		if out, stderr, code := runCLI(t, args...); code != 0 || out != overview || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q, not the command list", args, code, stderr)
		}
	}
	if out, stderr, code := runCLI(t); code != report.ExitUsage || out != "" || stderr != overview {
		t.Errorf("no arguments: exit %d, stdout %q; want the list on stderr and exit 2", code, out)
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "vet", "audit"}, {"nosuch"}} {
		out, stderr, code := runCLI(t, args...)
		if code != report.ExitUsage || out != "" || !strings.Contains(stderr, "nosuch") && !strings.Contains(stderr, "one topic") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 naming the problem", args, code, out, stderr)
		}
	}
	if _, stderr, _ := runCLI(t, "help", "nosuch"); !strings.Contains(stderr, `unknown help topic "nosuch"`) || !strings.Contains(stderr, "vet") {
		t.Errorf("help nosuch does not list the topics: %s", stderr)
	}
}

// TestVersion: version, --version, -version and -V print the same lines;
// the build information's module version, VCS revision, time and dirty
// flag, and the Go version, are all shown.
func TestVersion(t *testing.T) {
	out, stderr, code := runCLI(t, "version")
	if code != 0 || stderr != "" || !strings.HasPrefix(out, "lockaudit ") || !strings.Contains(out, "\ngo:       go1.") {
		t.Fatalf("version: exit %d, stderr %q\n%s", code, stderr, out)
	}
	for _, args := range [][]string{{"--version"}, {"-version"}, {"-V"}} {
		if got, stderr, code := runCLI(t, args...); code != 0 || got != out || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q:\n%s\nwant:\n%s", args, code, stderr, got, out)
		}
	}
	if _, _, code := runCLI(t, "version", "extra"); code != report.ExitUsage {
		t.Errorf("version extra: exit %d, want 2", code)
	}
	var b strings.Builder
	writeVersion(&b, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.1.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-12-01T12:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
		{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "arm64"},
	}})
	want := "lockaudit v0.1.0\ncommit:   0123456789abcdef0123456789abcdef01234567 (2026-12-01T12:00:00Z), modified\ngo:       go1.26.8 darwin/arm64\n"
	if b.String() != want {
		t.Errorf("writeVersion:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	writeVersion(&b, nil)
	if !strings.HasPrefix(b.String(), "lockaudit (devel)\ncommit:   not recorded (built without version control information") {
		t.Errorf("without build information:\n%s", b.String())
	}
	b.Reset()
	writeVersion(&b, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.1.0"}})
	if !strings.HasPrefix(b.String(), "lockaudit v0.1.0\ncommit:   not recorded (built from the module v0.1.0") {
		t.Errorf("go install ...@v0.1.0:\n%s", b.String())
	}
}

// TestRuleNamesWhereIDs: explain, -rules and the config accept a rule's
// name as they accept its ID.
func TestRuleNamesWhereIDs(t *testing.T) {
	byID, _, code := runCLI(t, "explain", "LA103", "la115")
	byName, stderr, code2 := runCLI(t, "explain", "plain-del-release", "Wait-Reply-Ignored")
	if code != 0 || code2 != 0 || byID != byName || !strings.Contains(byID, "LA103 plain-del-release") {
		t.Errorf("explain by name: exit %d/%d, %s\nby ID:\n%s\nby name:\n%s", code, code2, stderr, byID, byName)
	}
	if _, stderr, code := runCLI(t, "explain", "plain-del"); code != report.ExitUsage || !strings.Contains(stderr, `unknown rule "plain-del"`) {
		t.Errorf("explain of a partial name: exit %d %s", code, stderr)
	}

	mod := exampleDir(t)
	ids, _, code := runCLI(t, "vet", "-C", mod, "-rules", "LA103,LA104", "-format", "json", "./...")
	names, stderr, code2 := runCLI(t, "vet", "-C", mod, "-rules", "plain-del-release,extend-without-ttl", "-format", "json", "./...")
	if code != report.ExitFindings || code2 != code || findingRules(t, ids) != findingRules(t, names) || findingRules(t, ids) != "LA103,LA104" {
		t.Errorf("-rules by name: exit %d/%d %s; rules %s vs %s", code, code2, stderr, findingRules(t, ids), findingRules(t, names))
	}
	dir := copyExample(t)
	os.WriteFile(filepath.Join(dir, ".lockaudit.yaml"), []byte("rules:\n  plain-del-release: off\n  lua-lock-script: info\n"), 0o644)
	out, stderr, code := runCLI(t, "vet", "-C", dir, "-format", "json", "./...")
	var run report.Run
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatalf("exit %d %s: %v", code, stderr, err)
	}
	la101 := 0
	for _, f := range run.Findings {
		if f.Rule == "LA103" {
			t.Errorf("LA103 reported although the config turns plain-del-release off: %s", f.Message)
		}
		if f.Rule == "LA101" {
			la101++
			if f.Severity != rules.Info {
				t.Errorf("LA101 at %s, want info (lua-lock-script: info)", f.Severity)
			}
		}
	}
	if la101 == 0 {
		t.Error("no LA101 finding: the test proves nothing about severities by name")
	}
}

// findingRules lists the rules of a JSON run's findings, sorted, unique.
func findingRules(t *testing.T, out string) string {
	t.Helper()
	var run report.Run
	if err := json.Unmarshal([]byte(out), &run); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	seen := map[string]bool{}
	var ids []string
	for _, f := range run.Findings {
		if !seen[string(f.Rule)] {
			seen[string(f.Rule)] = true
			ids = append(ids, string(f.Rule))
		}
	}
	sort.Strings(ids)
	return strings.Join(ids, ",")
}

// TestFlagsAfterPatterns: flags may follow the package patterns (and
// addresses, and render's input); "--" ends the flags.
func TestFlagsAfterPatterns(t *testing.T) {
	mod := exampleDir(t)
	before, _, code := runCLI(t, "vet", "-C", mod, "-format", "json", "-rules", "LA103", "./inventory/...")
	after, stderr, code2 := runCLI(t, "vet", "-C", mod, "./inventory/...", "-format", "json", "-rules", "LA103")
	if code != report.ExitFindings || code2 != code || findingRules(t, before) != "LA103" || findingRules(t, after) != "LA103" {
		t.Errorf("vet with flags after the patterns: exit %d/%d %s", code, code2, stderr)
	}
	var b, a report.Run
	json.Unmarshal([]byte(before), &b)
	json.Unmarshal([]byte(after), &a)
	if len(a.Findings) != len(b.Findings) || strings.Join(a.Packages, " ") != strings.Join(b.Packages, " ") {
		t.Errorf("flags after the patterns change the run: %v %d vs %v %d", b.Packages, len(b.Findings), a.Packages, len(a.Findings))
	}
	// Between the patterns too, and preflight alike.
	_, stderr, code = runCLI(t, "preflight", "-C", mod, "./inventory/...", "-target", "valkey-9.0", "./billing/...", "-format", "json", "-o", filepath.Join(t.TempDir(), "r.json"))
	if code != report.ExitFindings {
		t.Errorf("preflight with interleaved flags: exit %d\n%s", code, stderr)
	}
	// After "--", an argument that looks like a flag is an argument.
	_, stderr, code = runCLI(t, "explain", "--", "-LA103")
	if code != report.ExitUsage || !strings.Contains(stderr, `unknown rule "-LA103"`) {
		t.Errorf("explain -- -LA103: exit %d %s", code, stderr)
	}
}

// TestHostWithoutPort: a host without a port means 6379, and 26379 for
// -sentinel, from flags, arguments and the config file alike.
func TestHostWithoutPort(t *testing.T) {
	for _, tc := range []struct{ in, port, want string }{
		{"10.0.0.1", DefaultPort, "10.0.0.1:6379"},
		{"valkey.internal", DefaultPort, "valkey.internal:6379"},
		{"10.0.0.1:7000", DefaultPort, "10.0.0.1:7000"},
		{"::1", DefaultPort, "[::1]:6379"},
		{"[::1]", DefaultSentinelPort, "[::1]:26379"},
		{"[::1]:7000", DefaultPort, "[::1]:7000"},
		{"10.0.0.9", DefaultSentinelPort, "10.0.0.9:26379"},
		{"10.0.0.1:x", DefaultPort, "10.0.0.1:x"}, // left for CheckAddr to refuse
		{"a b", DefaultPort, "a b"},
	} {
		if got := withDefaultPort(tc.in, tc.port); got != tc.want {
			t.Errorf("withDefaultPort(%q, %s) = %q, want %q", tc.in, tc.port, got, tc.want)
		}
	}
	e := &env{Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, Getenv: func(string) string { return "" }, Dir: t.TempDir()}
	o, err := parseProbeFlags(e, []string{"-addr", "127.0.0.1,127.0.0.2:7001", "127.0.0.3", "-sentinel", "127.0.0.9"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.conn.addrs, " "); got != "127.0.0.1:6379 127.0.0.2:7001 127.0.0.3:6379" {
		t.Errorf("addresses %s", got)
	}
	if got := strings.Join(o.conn.sentinels, " "); got != "127.0.0.9:26379" {
		t.Errorf("sentinels %s", got)
	}
	os.WriteFile(filepath.Join(e.Dir, ".lockaudit.yaml"), []byte("probe:\n  sentinel: [127.0.0.8]\n"), 0o644)
	o, err = parseProbeFlags(e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.conn.sentinels, " "); got != "127.0.0.8:26379" {
		t.Errorf("sentinels from the config file: %s", got)
	}
	// End to end: the probe dials port 6379 of the host (nothing listens
	// on this loopback address's port; the error names it).
	_, stderr, code := runCLI(t, "probe", "-timeout", "2s", "127.0.0.77")
	if code != report.ExitFailed || !strings.Contains(stderr, "127.0.0.77:6379") {
		t.Errorf("probe 127.0.0.77: exit %d\n%s", code, stderr)
	}
}

// TestExitZero: -exit-zero turns findings (3) into 0 on vet, audit, probe
// and preflight; an incomplete run, a usage error and unknown evidence
// still fail.
func TestExitZero(t *testing.T) {
	mod := exampleDir(t)
	out, _, code := runCLI(t, "vet", "-C", mod, "./...")
	outZ, stderrZ, codeZ := runCLI(t, "vet", "-C", mod, "-exit-zero", "./...")
	if code != report.ExitFindings || codeZ != 0 || out != outZ || !strings.Contains(stderrZ, "findings") {
		t.Errorf("vet -exit-zero: exit %d (without: %d); the report must not change\n%s", codeZ, code, stderrZ)
	}
	if _, _, code := runCLI(t, "preflight", "-C", mod, "-target", "valkey-8.1", "-exit-zero", "./..."); code != 0 {
		t.Errorf("preflight -exit-zero: exit %d, want 0", code)
	}
	if _, _, code := runCLI(t, "preflight", "-C", mod, "-target", "valkey-8.1", "./..."); code != report.ExitFindings {
		t.Errorf("preflight without -exit-zero: exit %d, want 3", code)
	}
	broken := writeModule(t, map[string]string{"go.mod": "module example.com/b\n\ngo 1.22\n", "bad/bad.go": "package bad\n\nfunc B() int { return undefinedThing }\n"})
	if _, _, code := runCLI(t, "vet", "-C", broken, "-exit-zero", "./..."); code != report.ExitFailed {
		t.Errorf("vet -exit-zero of a broken package: exit %d, want 1", code)
	}
	if _, _, code := runCLI(t, "vet", "-exit-zero", "-format", "xml"); code != report.ExitUsage {
		t.Errorf("vet -exit-zero with a usage error: exit %d, want 2", code)
	}
	// No node reachable: incomplete, whatever -exit-zero says.
	for _, args := range [][]string{{"probe", "-exit-zero", "-timeout", "2s", "127.0.0.1:1"}, {"audit", "-C", mod, "-exit-zero", "-timeout", "2s", "-addr", "127.0.0.1:1", "./inventory/..."}} {
		if _, stderr, code := runCLI(t, args...); code != report.ExitFailed {
			t.Errorf("%q: exit %d, want 1\n%s", args, code, stderr)
		}
	}
	for _, tc := range []struct{ code, want int }{{0, 0}, {report.ExitFindings, 0}, {report.ExitFailed, report.ExitFailed}, {report.ExitUnknown, report.ExitUnknown}} {
		r := report.New("probe", "v")
		switch tc.code {
		case report.ExitFindings:
			r.Findings = []report.Finding{{Rule: "LA201", Severity: rules.Error, Node: "a:1", Message: "m"}}
		case report.ExitFailed:
			r.Errors = []report.Error{{Where: "a:1", Message: "refused"}}
		case report.ExitUnknown:
			r.Uses = []report.Use{{Command: rules.UseDELIFEQ}}
			r.Verdict = report.NewVerdict() // every path unknown
		}
		if got := report.ExitCode(r); got != tc.code {
			t.Fatalf("the test's run exits %d, want %d", got, tc.code)
		}
		if got := commandExit(context.Background(), &env{Stderr: &strings.Builder{}}, "probe", runExit(r, true)); got != tc.want {
			t.Errorf("-exit-zero on a run that exits %d: %d, want %d", tc.code, got, tc.want)
		}
	}
}

// TestExitZeroLive: on a real mid-upgrade fleet probe and audit exit 3
// (the release is unsafe), and 0 with -exit-zero, with the same report.
func TestExitZeroLive(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	mod := exampleDir(t)
	for _, args := range [][]string{{"probe", n[0].Addr}, {"audit", "-C", mod, "-addr", n[0].Addr, "./billing/..."}} {
		out, _, code := runCLI(t, append(args, "-format", "json")...)
		outZ, stderrZ, codeZ := runCLI(t, append(args, "-format", "json", "-exit-zero")...)
		var a, b report.Run
		json.Unmarshal([]byte(out), &a)
		json.Unmarshal([]byte(outZ), &b)
		if code != report.ExitFindings || codeZ != 0 || a.Verdict == nil || b.Verdict == nil || a.Verdict.Of(rules.NativeRelease).Safe != report.No || b.Verdict.Of(rules.NativeRelease).Safe != report.No {
			t.Errorf("%s: exit %d, with -exit-zero %d (want 3 and 0, both unsafe)\n%s", args[0], code, codeZ, stderrZ)
		}
	}
}

// TestHelpFlagLines: no flag line of any help page says its default twice
// (scan's -count read "(default: scan.count) (default 1000)") or shows a
// stray backquote (rules' -kind read "list only code or `node` rules"
// under "-kind code").
func TestHelpFlagLines(t *testing.T) {
	for _, name := range commandNames() {
		help, _, _ := runCLI(t, "help", name)
		for _, l := range strings.Split(help, "\n") {
			if strings.Count(l, "(default") > 1 || strings.Contains(l, "`") {
				t.Errorf("help %s: %q", name, l)
			}
		}
	}
	help, _, _ := runCLI(t, "help", "rules")
	if !strings.Contains(help, "  -kind KIND\n") {
		t.Errorf("help rules: -kind's argument is not named KIND:\n%s", help)
	}
	help, _, _ = runCLI(t, "help", "scan")
	if !strings.Contains(help, "(default 1000, or the config file's scan.count)") {
		t.Errorf("help scan: -count's default:\n%s", help)
	}
}
