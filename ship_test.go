// Tests of what ships around the code: the release configuration, the
// GitHub Action and the workflows the documentation shows, the pre-commit
// hooks, the go directive, the license and the README's first screen.
// The tools they run (goreleaser, actionlint, shellcheck) are installed by
// .ci/test; without them a test skips, unless LOCKAUDIT_REQUIRE_TOOLS=1.
package lockaudit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/mod/semver"
	"gopkg.in/yaml.v3"
)

// tool finds a tool: the path in env, else name on PATH. Missing, the test
// skips, or fails when LOCKAUDIT_REQUIRE_TOOLS=1 (CI).
func tool(t *testing.T, env, name, install string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	msg := fmt.Sprintf("%s not found (set %s or put it on PATH: %s)", name, env, install)
	if os.Getenv("LOCKAUDIT_REQUIRE_TOOLS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func readYAML(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The six release targets.
var targets = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}

// TestGoreleaserCheck: goreleaser v2.15.1 accepts .goreleaser.yaml (no
// error, no deprecated key), which builds the six targets from
// ./cmd/lockaudit with checksums, stamps the version from Go's build
// information (no -X), and ships the license in every archive; .ci/test
// cross-compiles the same six.
func TestGoreleaserCheck(t *testing.T) {
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Binary  string   `yaml:"binary"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
			Flags   []string `yaml:"flags"`
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
		Checksum struct {
			Algorithm string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	readYAML(t, ".goreleaser.yaml", &cfg)
	if cfg.Version != 2 || len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("want one build and one archive of goreleaser v2: %+v", cfg)
	}
	b := cfg.Builds[0]
	var got []string
	for _, goos := range b.Goos {
		for _, arch := range b.Goarch {
			got = append(got, goos+"/"+arch)
		}
	}
	sort.Strings(got)
	if !slices.Equal(got, targets) || b.Main != "./cmd/lockaudit" || b.Binary != "lockaudit" {
		t.Errorf("build %s of %s: targets %v, want %v", b.Binary, b.Main, got, targets)
	}
	if strings.Contains(strings.Join(b.Ldflags, " "), "-X") || !slices.Contains(b.Flags, "-buildvcs=true") {
		t.Errorf("the version must come from the build information: flags %v, ldflags %v", b.Flags, b.Ldflags)
	}
	if !slices.Contains(cfg.Archives[0].Files, "LICENSE") || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("archives %v, checksum %q", cfg.Archives[0].Files, cfg.Checksum.Algorithm)
	}
	ci, err := os.ReadFile(filepath.Join(".ci", "test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range targets {
		if !bytes.Contains(ci, []byte(target)) {
			t.Errorf(".ci/test does not cross-compile %s", target)
		}
	}

	bin := tool(t, "LOCKAUDIT_GORELEASER", "goreleaser", "go install github.com/goreleaser/goreleaser/v2@v2.15.1")
	if out, err := exec.Command(bin, "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "2.15.1") {
		t.Fatalf("%s --version: %v\n%s\nwant goreleaser 2.15.1", bin, err, out)
	}
	if out, err := exec.Command(bin, "check").CombinedOutput(); err != nil {
		t.Errorf("goreleaser check: %v\n%s", err, out)
	}
	// The check can fail: a deprecated key is an error.
	dir := t.TempDir()
	data, _ := os.ReadFile(".goreleaser.yaml")
	os.WriteFile(filepath.Join(dir, ".goreleaser.yaml"), bytes.Replace(data, []byte("formats: [tar.gz]"), []byte("format: tar.gz"), 1), 0o644)
	check := exec.Command(bin, "check")
	check.Dir = dir
	if out, err := check.CombinedOutput(); err == nil {
		t.Errorf("goreleaser check accepts a deprecated key:\n%s", out)
	}
}

// fencedYAML finds the ```yaml blocks of a Markdown file.
var fencedYAML = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// docWorkflows returns the GitHub Actions workflows (YAML blocks with on:
// and jobs:) of the README and docs/*.md, by file.
func docWorkflows(t *testing.T) map[string][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("docs", "*.md"))
	files = append(files, "README.md")
	out := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fencedYAML.FindAllStringSubmatch(string(data), -1) {
			var doc map[string]any
			if yaml.Unmarshal([]byte(m[1]), &doc) != nil {
				continue
			}
			if _, on := doc["on"]; on && doc["jobs"] != nil {
				out[f] = append(out[f], m[1])
			}
		}
	}
	return out
}

// usesAction is a step that uses this repository's action at some ref.
var usesAction = regexp.MustCompile(`uses: lockaudit/lockaudit@\S+`)

// TestWorkflowsPassActionlint: actionlint v1.7.12 accepts every workflow
// the README and docs show, and, with this repository's action.yml standing
// in for lockaudit/lockaudit@REF, the inputs they give it; the README's
// workflow uses the action. A workflow with an input the action lacks
// fails, so the check can fail.
func TestWorkflowsPassActionlint(t *testing.T) {
	flows := docWorkflows(t)
	if len(flows["README.md"]) == 0 {
		t.Fatal("the README shows no workflow")
	}
	readmeUsesAction := false
	for _, w := range flows["README.md"] {
		readmeUsesAction = readmeUsesAction || usesAction.MatchString(w)
	}
	if !readmeUsesAction {
		t.Error("the README's workflow does not use the lockaudit action")
	}
	bin := tool(t, "LOCKAUDIT_ACTIONLINT", "actionlint", "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
	if out, err := exec.Command(bin, "-version").CombinedOutput(); err != nil || !strings.Contains(string(out), "1.7.12") {
		t.Fatalf("%s -version: %v\n%s\nwant actionlint 1.7.12", bin, err, out)
	}
	if _, err := exec.LookPath("shellcheck"); err != nil && os.Getenv("LOCKAUDIT_REQUIRE_TOOLS") == "1" {
		t.Fatal("shellcheck is not on PATH: actionlint would not check the run: scripts")
	}
	action, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	lint := func(workflows map[string]string) (string, error) {
		dir := t.TempDir()
		// actionlint finds the project (and so the local action ./) by
		// its .git folder.
		os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
		os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755)
		os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644)
		var files []string
		for name, w := range workflows {
			p := filepath.Join(".github", "workflows", name)
			os.WriteFile(filepath.Join(dir, p), []byte(usesAction.ReplaceAllString(w, "uses: ./")), 0o644)
			files = append(files, p)
		}
		sort.Strings(files)
		cmd := exec.Command(bin, append([]string{"-no-color"}, files...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	all := map[string]string{}
	n := 0
	for f, ws := range flows {
		for i, w := range ws {
			all[fmt.Sprintf("%s-%d.yml", strings.ReplaceAll(strings.TrimSuffix(f, ".md"), "/", "-"), i)] = w
			n++
		}
	}
	if out, err := lint(all); err != nil {
		t.Errorf("actionlint on the %d workflows of the README and docs: %v\n%s", n, err, out)
	}
	bad := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: lockaudit/lockaudit@v0.1.0\n        with:\n          no-such-input: x\n"
	if out, err := lint(map[string]string{"bad.yml": bad}); err == nil || !strings.Contains(out, "no-such-input") {
		t.Errorf("actionlint accepted an input the action does not have (%v):\n%s\n%s", err, out, bad)
	}
}

// TestActionScripts: the action's run: scripts pass shellcheck, and every
// input and step output they use is declared.
func TestActionScripts(t *testing.T) {
	var action struct {
		Inputs  map[string]any `yaml:"inputs"`
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID    string `yaml:"id"`
				Run   string `yaml:"run"`
				Shell string `yaml:"shell"`
				Uses  string `yaml:"uses"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	readYAML(t, "action.yml", &action)
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", action.Runs.Using)
	}
	data, _ := os.ReadFile("action.yml")
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(string(data), -1) {
		if _, ok := action.Inputs[m[1]]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	var uploads bool
	for _, s := range action.Runs.Steps {
		uploads = uploads || strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@")
	}
	if !uploads {
		t.Error("the action does not upload to code scanning")
	}
	check, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("LOCKAUDIT_REQUIRE_TOOLS") == "1" {
			t.Fatal("shellcheck is not on PATH (apt-get install shellcheck)")
		}
		t.Skip("shellcheck is not on PATH")
	}
	expr := regexp.MustCompile(`\$\{\{[^}]*\}\}`)
	for i, s := range action.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell != "bash" {
			t.Errorf("step %d: shell %q, want bash", i, s.Shell)
		}
		if expr.MatchString(s.Run) {
			t.Errorf("step %d: ${{ }} inside a script (pass it through env: instead):\n%s", i, s.Run)
		}
		cmd := exec.Command(check, "--shell=bash", "-")
		cmd.Stdin = strings.NewReader(s.Run)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("shellcheck of step %d: %v\n%s", i, err, out)
		}
	}
}

// preCommitHook is an entry of .pre-commit-hooks.yaml.
type preCommitHook struct {
	ID            string   `yaml:"id"`
	Name          string   `yaml:"name"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	Language      string   `yaml:"language"`
	Types         []string `yaml:"types"`
	Files         string   `yaml:"files"`
	PassFilenames *bool    `yaml:"pass_filenames"`
}

// TestPreCommitHooks: each hook runs an existing lockaudit command — the
// vet hooks on the module when Go files change, the config check on each
// changed .lockaudit.yaml — and each pair has a golang hook (built from the
// module's cmd/lockaudit) and a system one. Then each hook is run as
// pre-commit runs it (entry, args, the file names when it takes them) on a
// scratch repository: the new-findings hook passes the findings recorded
// in the baseline and fails a new one (and a missing baseline), the
// config check fails a changed file with a mistake and names it.
func TestPreCommitHooks(t *testing.T) {
	var hooks []preCommitHook
	readYAML(t, ".pre-commit-hooks.yaml", &hooks)
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.ID] = true
		f := strings.Fields(h.Entry)
		if len(f) < 2 || f[0] != "lockaudit" || h.ID == "" || h.Name == "" {
			t.Errorf("hook %+v: entry must run a lockaudit command", h)
			continue
		}
		out, err := exec.Command("go", "run", "./cmd/lockaudit", "help", f[1]).CombinedOutput()
		if err != nil {
			t.Errorf("hook %s runs lockaudit %s, which is not a command: %v\n%s", h.ID, f[1], err, out)
		}
		switch f[1] {
		case "vet":
			if !slices.Equal(h.Types, []string{"go"}) || h.PassFilenames == nil || *h.PassFilenames || !slices.Contains(h.Args, "./...") {
				t.Errorf("hook %s: want types [go], pass_filenames false and ./... (packages, not files)", h.ID)
			}
		case "config":
			re, err := regexp.Compile(h.Files)
			if err != nil || h.PassFilenames == nil || !*h.PassFilenames || !re.MatchString(".lockaudit.yaml") || !re.MatchString("svc/orders/.lockaudit.yaml") || re.MatchString("svc/x.lockaudit.yaml") || re.MatchString("lockaudit.yaml") {
				t.Errorf("hook %s: want the changed .lockaudit.yaml files passed (files %q: %v)", h.ID, h.Files, err)
			}
		}
		if h.Language == "golang" && !strings.HasSuffix(h.ID, "-system") && !slices.ContainsFunc(hooks, func(o preCommitHook) bool {
			return o.ID == h.ID+"-system" && o.Entry == h.Entry && o.Language == "system"
		}) {
			t.Errorf("hook %s has no -system twin with the same entry", h.ID)
		}
	}
	for _, id := range []string{"lockaudit-vet", "lockaudit-vet-new", "lockaudit-config-check"} {
		if !ids[id] {
			t.Errorf("no hook %s", id)
		}
	}
	// pre-commit's golang hooks go install the repository: the binary is
	// named after cmd/lockaudit.
	out, err := exec.Command("go", "list", "-f", "{{.Name}} {{.Target}}", "./cmd/lockaudit").Output()
	if err != nil || !strings.HasPrefix(string(out), "main ") || filepath.Base(strings.TrimSpace(strings.Fields(string(out))[1])) != "lockaudit" {
		t.Errorf("go list ./cmd/lockaudit: %s %v", out, err)
	}

	// Each hook as pre-commit runs it: entry, then args, then the files.
	bin := buildLockaudit(t)
	repo := t.TempDir()
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755)
		os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644)
	}
	hook := func(id string, files ...string) (int, string) {
		for _, h := range hooks {
			if h.ID == id {
				f := strings.Fields(h.Entry)
				args := append(append(f[1:], h.Args...), files...)
				cmd := exec.Command(bin, args...)
				cmd.Dir = repo
				out, _ := cmd.CombinedOutput()
				return cmd.ProcessState.ExitCode(), string(out)
			}
		}
		t.Fatalf("no hook %s", id)
		return 0, ""
	}
	write("go.mod", "module example.com/hooks\n\ngo 1.22\n")
	write("a.go", "package hooks\n\n//lockaudit:ignore LA103\nfunc A() {}\n")
	if code, out := hook("lockaudit-vet-new"); code != 2 || !strings.Contains(out, ".lockaudit-baseline.json") {
		t.Errorf("lockaudit-vet-new without a baseline: exit %d, want 2 naming it:\n%s", code, out)
	}
	if out, err := exec.Command(bin, "vet", "-C", repo, "-write-baseline", ".lockaudit-baseline.json", "./...").CombinedOutput(); err != nil {
		t.Fatalf("-write-baseline: %v\n%s", err, out)
	}
	if code, out := hook("lockaudit-vet-new"); code != 0 {
		t.Errorf("lockaudit-vet-new with the finding in the baseline: exit %d\n%s", code, out)
	}
	if code, _ := hook("lockaudit-vet"); code != 3 {
		t.Errorf("lockaudit-vet on the same code: exit %d, want 3 (it ignores the baseline)", code)
	}
	write("b.go", "package hooks\n\n//lockaudit:ignore LA104\nfunc B() {}\n")
	if code, out := hook("lockaudit-vet-new"); code != 3 || !strings.Contains(out, "b.go:3:1: LA100") || strings.Contains(out, "a.go") {
		t.Errorf("lockaudit-vet-new with a new finding: exit %d, want 3 for b.go only:\n%s", code, out)
	}
	write(".lockaudit.yaml", "target: valkey-9.0\n")
	write("svc/.lockaudit.yaml", "target: valkey-9.0\nrules:\n  LA103: loud\n")
	if code, out := hook("lockaudit-config-check", ".lockaudit.yaml"); code != 0 {
		t.Errorf("lockaudit-config-check on a valid file: exit %d\n%s", code, out)
	}
	if code, out := hook("lockaudit-config-check", ".lockaudit.yaml", "svc/.lockaudit.yaml"); code != 2 || !strings.Contains(out, "svc/.lockaudit.yaml:3") || !strings.Contains(out, "1 file of 2 has mistakes: svc/.lockaudit.yaml") {
		t.Errorf("lockaudit-config-check with a mistake in one of two files: exit %d, want 2 naming it:\n%s", code, out)
	}
}

// TestGoDirective: go.mod's go directive is the lowest Go release the
// dependencies allow (the highest go directive among them), so runners
// with GOTOOLCHAIN=local and that Go can build lockaudit; and that
// toolchain, taken from the Go module proxy, builds every package.
func TestGoDirective(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-json", "all").Output()
	if err != nil {
		t.Fatal(err)
	}
	var main, lowest string
	var by string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m struct {
			Path      string
			Main      bool
			GoVersion string
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m.Main {
			main = m.GoVersion
			continue
		}
		if m.GoVersion != "" && (lowest == "" || semver.Compare("v"+m.GoVersion, "v"+lowest) > 0) {
			lowest, by = m.GoVersion, m.Path
		}
	}
	if main != lowest {
		t.Errorf("go.mod says go %s; the dependencies allow go %s (required by %s): use that", main, lowest, by)
	}
	if testing.Short() {
		t.Skip("downloads and builds with go" + main)
	}
	build := exec.Command("go", "build", "./...")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=go"+main)
	out, err = build.CombinedOutput()
	if err != nil && bytes.Contains(out, []byte("toolchain")) && os.Getenv("LOCKAUDIT_REQUIRE_TOOLS") != "1" {
		t.Skipf("the go%s toolchain could not be had from the module proxy: %v\n%s", main, err, out)
	}
	if err != nil {
		t.Errorf("go build ./... with GOTOOLCHAIN=go%s: %v\n%s", main, err, out)
	}
}

// TestLicense: the license is Apache 2.0, in full.
func TestLicense(t *testing.T) {
	data, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "9. Accepting Warranty or Additional Liability.", "END OF TERMS AND CONDITIONS"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
}

// TestReadmeFirstScreen: the README keeps exactly two set-up commands at
// the top (the main job, the whole test suite), and its first screen gives
// a reader on macOS or Windows a path that works there: go install and the
// demo without servers.
func TestReadmeFirstScreen(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	screen := strings.Join(lines[:min(len(lines), 45)], "\n")
	block := regexp.MustCompile("(?s)<!-- setup:[^>]*-->.*?```sh\n(.*?)```").FindStringSubmatch(screen)
	if block == nil {
		t.Fatal("no set-up block in the README's first screen")
	}
	cmds := strings.Split(strings.TrimSpace(block[1]), "\n")
	if len(cmds) != 2 || !strings.Contains(cmds[0], "lockaudit demo") || !strings.HasPrefix(cmds[1], ".ci/test") {
		t.Errorf("set-up commands %q: want two, the demo and .ci/test", cmds)
	}
	for _, want := range []string{"go install github.com/lockaudit/lockaudit/cmd/lockaudit@latest", "lockaudit demo -offline", "macOS", "Windows"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the README's first screen lacks %q", want)
		}
	}
}

// TestAlertRules: the alerting rules the docs show are the rules file
// (docs/prometheus/lockaudit-rules.yml), promtool checks it and its unit
// tests pass — several fleets watched at once, the watcher down or not
// scraped —, and the unit tests can fail: the former `and on(path)` join,
// which matched one fleet's verdict with another's relied_on, fails them.
func TestAlertRules(t *testing.T) {
	rules, err := os.ReadFile(filepath.Join("docs", "prometheus", "lockaudit-rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("docs", "fleet-commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(rules[bytes.Index(rules, []byte("groups:")):])
	shown := false
	for _, m := range fencedYAML.FindAllStringSubmatch(string(doc), -1) {
		if strings.HasPrefix(m[1], "groups:") {
			shown = true
			if m[1] != body {
				t.Errorf("docs/fleet-commands.md shows other rules than docs/prometheus/lockaudit-rules.yml")
			}
		}
	}
	if !shown {
		t.Error("docs/fleet-commands.md shows no alerting rules")
	}
	bin := tool(t, "LOCKAUDIT_PROMTOOL", "promtool", "apt-get install prometheus (Debian's package ships promtool)")
	promtool := func(dir string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	dir := filepath.Join("docs", "prometheus")
	if out, err := promtool(dir, "check", "rules", "lockaudit-rules.yml"); err != nil || !strings.Contains(out, "SUCCESS: 5 rules found") {
		t.Errorf("promtool check rules: %v\n%s", err, out)
	}
	if out, err := promtool(dir, "test", "rules", "lockaudit-rules.test.yml"); err != nil || !strings.Contains(out, "SUCCESS") {
		t.Errorf("promtool test rules: %v\n%s", err, out)
	}
	bad := t.TempDir()
	tests, _ := os.ReadFile(filepath.Join(dir, "lockaudit-rules.test.yml"))
	os.WriteFile(filepath.Join(bad, "lockaudit-rules.test.yml"), tests, 0o644)
	os.WriteFile(filepath.Join(bad, "lockaudit-rules.yml"), bytes.ReplaceAll(rules, []byte("and ignoring(verdict)"), []byte("and on(path)")), 0o644)
	if out, err := promtool(bad, "test", "rules", "lockaudit-rules.test.yml"); err == nil || !strings.Contains(out, `instance="a:9187"`) {
		t.Errorf("the unit tests pass rules that join fleets on path alone (%v):\n%s", err, out)
	}
}

// mdCitation is a Markdown file named in a script or a comment.
var mdCitation = regexp.MustCompile(`[\w./-]*[A-Za-z][\w-]*\.md\b`)

// TestScriptsCiteExistingDocs: every Markdown file the .ci scripts name
// is in the repository (install-servers cited a TEST-SERVERS.md that is
// not).
func TestScriptsCiteExistingDocs(t *testing.T) {
	scripts, _ := filepath.Glob(filepath.Join(".ci", "*"))
	if len(scripts) < 3 {
		t.Fatalf("only %d scripts in .ci", len(scripts))
	}
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range mdCitation.FindAllString(string(data), -1) {
			found := false
			for _, p := range []string{name, filepath.Join("docs", name)} {
				if _, err := os.Stat(p); err == nil {
					found = true
				}
			}
			if !found {
				t.Errorf("%s cites %s, which is not in the repository", s, name)
			}
		}
	}
}
