package lockaudit_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/workflowcmd"
)

// actionStep is one step of action.yml.
type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	ContinueOnError  bool              `yaml:"continue-on-error"`
}

// actionRun runs action.yml's steps the way the runner does — each run:
// script with `bash --noprofile --norc -eo pipefail`, its env: with the
// ${{ }} expressions evaluated, in its working-directory, GITHUB_OUTPUT
// read back into steps.ID.outputs — on this machine. The uses: step
// (the code scanning upload) is not run: its if: is evaluated and
// recorded. lockaudit is the binary bin; the install step is skipped.
type actionRun struct {
	t         *testing.T
	workspace string
	bin       string
	inputs    map[string]string
	github    map[string]string
	outputs   map[string]map[string]string
	outcomes  map[string]string
	log       strings.Builder
	failed    int // the exit status of the first step that failed, 0 if none
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// eval evaluates the expressions action.yml uses: inputs.X,
// github.X (github.event.pull_request.head.repo.full_name too),
// steps.ID.outputs.X, steps.ID.outcome and `A == 'B'`.
func (a *actionRun) eval(s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		e := expression.FindStringSubmatch(m)[1]
		if l, r, ok := strings.Cut(e, " == "); ok {
			return strconv.FormatBool(a.value(l) == strings.Trim(r, "'"))
		}
		return a.value(e)
	})
}

func (a *actionRun) value(e string) string {
	switch {
	case strings.HasPrefix(e, "inputs."):
		return a.inputs[strings.TrimPrefix(e, "inputs.")]
	case strings.HasPrefix(e, "github."):
		return a.github[strings.TrimPrefix(e, "github.")]
	case strings.HasPrefix(e, "steps."):
		f := strings.Split(e, ".")
		if len(f) == 3 && f[2] == "outcome" {
			return a.outcomes[f[1]]
		}
		if len(f) == 4 && f[2] == "outputs" {
			return a.outputs[f[1]][f[3]]
		}
	}
	a.t.Fatalf("action.yml uses an expression this test cannot evaluate: %s", e)
	return ""
}

// runAction runs the action with the given inputs (over the defaults) and
// github context.
func runAction(t *testing.T, workspace, bin string, inputs, github map[string]string) *actionRun {
	t.Helper()
	var action struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	readYAML(t, "action.yml", &action)
	a := &actionRun{t: t, workspace: workspace, bin: bin, inputs: map[string]string{}, github: github, outputs: map[string]map[string]string{}, outcomes: map[string]string{}}
	for name, in := range action.Inputs {
		a.inputs[name] = in.Default
	}
	for k, v := range inputs {
		if _, ok := action.Inputs[k]; !ok {
			t.Fatalf("action.yml has no input %s", k)
		}
		a.inputs[k] = v
	}
	temp := t.TempDir()
	for i, s := range action.Runs.Steps {
		if s.If != "" && a.eval(s.If) != "true" {
			a.outcomes[s.ID] = "skipped"
			continue
		}
		if s.Uses != "" || s.Name == "Install lockaudit" {
			a.outcomes[s.ID] = "success"
			if s.Uses != "" {
				a.outcomes["uses:"+s.ID] = "would run" // the upload
			}
			continue
		}
		out := filepath.Join(temp, "output-"+strconv.Itoa(i))
		os.WriteFile(out, nil, 0o644)
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = filepath.Join(workspace, a.eval(s.WorkingDirectory))
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_WORKSPACE="+workspace, "GITHUB_OUTPUT="+out, "RUNNER_TEMP="+temp, "GITHUB_PATH="+filepath.Join(temp, "path"))
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+a.eval(v))
		}
		b, err := cmd.CombinedOutput()
		a.log.Write(b)
		data, _ := os.ReadFile(out)
		outs := map[string]string{}
		for _, l := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				outs[k] = v
			}
		}
		a.outputs[s.ID] = outs
		a.outcomes[s.ID] = "success"
		if err != nil {
			a.outcomes[s.ID] = "failure"
			if a.failed == 0 {
				a.failed = cmd.ProcessState.ExitCode()
			}
			if !s.ContinueOnError {
				break
			}
		}
	}
	return a
}

// exampleWorkspace is a repository checkout whose Go module (the bundled
// example) is in a subfolder, services/orders.
func exampleWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.CopyFS(filepath.Join(ws, "services", "orders"), os.DirFS(filepath.Join("testdata", "example"))); err != nil {
		t.Fatal(err)
	}
	return ws
}

// buildLockaudit builds cmd/lockaudit into a temporary folder.
func buildLockaudit(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lockaudit")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/lockaudit").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestActionOnExample runs the Action's scripts on this machine against
// the bundled example, placed in a subfolder of a repository as a
// monorepo has it: the job log holds the text report and the findings as
// workflow commands the runner reads back (most severe first, each file
// existing from the repository root), the SARIF's paths exist from the
// repository root (so code scanning places the alerts), the upload runs
// on a push and is skipped with a notice on a pull request from a fork,
// and the step fails with exit 3 on findings.
func TestActionOnExample(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the example with its real modules")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := buildLockaudit(t)
	ws := exampleWorkspace(t)
	push := map[string]string{"event_name": "push", "repository": "acme/shop", "actor": "dev", "action_ref": "", "action_path": ""}
	a := runAction(t, ws, bin, map[string]string{"working-directory": "services/orders"}, push)
	log := a.log.String()

	if got := a.outputs["vet"]["exit-code"]; got != "3" {
		t.Fatalf("exit-code %q, want 3 (the example has findings)\n%s", got, log)
	}
	if a.failed != 3 {
		t.Errorf("the action's last step exited %d, want 3 (fail-on-findings)", a.failed)
	}
	// The text report, with repository paths.
	if !strings.Contains(log, "services/orders/billing/billing.go:13:21: LA101 ") {
		t.Errorf("the log has no text report with repository paths:\n%s", log)
	}
	// Annotations: most severe first, at files that exist.
	var annotations []workflowcmd.Command
	for _, c := range workflowcmd.All(log) {
		if c.Props["file"] != "" {
			annotations = append(annotations, c)
		}
	}
	if len(annotations) < 10 {
		t.Fatalf("%d annotations in the log, want the example's findings:\n%s", len(annotations), log)
	}
	rank := map[string]int{"error": 3, "warning": 2, "notice": 1}
	for i, c := range annotations {
		if i > 0 && rank[c.Name] > rank[annotations[i-1].Name] {
			t.Errorf("annotation %d (%s) after a %s: not most severe first", i+1, c.Name, annotations[i-1].Name)
		}
		line, _ := strconv.Atoi(c.Props["line"])
		data, err := os.ReadFile(filepath.Join(ws, c.Props["file"]))
		if err != nil || line < 1 || line > strings.Count(string(data), "\n")+1 {
			t.Errorf("annotation %s:%s is not a line of a file in the repository (%v)", c.Props["file"], c.Props["line"], err)
		}
		if !strings.HasPrefix(c.Props["title"], "LA1") || c.Data == "" {
			t.Errorf("annotation %+v: want a rule title and a message", c)
		}
	}
	// The SARIF: written where the output says, its paths from the root.
	sarifFile := a.outputs["vet"]["sarif-file"]
	if sarifFile != "services/orders/lockaudit.sarif" {
		t.Errorf("sarif-file %q", sarifFile)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(ws, sarifFile))
	if err != nil || json.Unmarshal(data, &doc) != nil || len(doc.Runs) != 1 {
		t.Fatalf("the SARIF report: %v", err)
	}
	uris := 0
	for _, r := range doc.Runs[0].Results {
		for _, l := range r.Locations {
			if u := l.PhysicalLocation.ArtifactLocation.URI; u != "" {
				uris++
				if _, err := os.Stat(filepath.Join(ws, filepath.FromSlash(u))); err != nil {
					t.Errorf("SARIF uri %s does not exist from the repository root", u)
				}
			}
		}
	}
	if uris < 10 {
		t.Errorf("%d SARIF locations, want the example's findings", uris)
	}
	if a.outputs["vet"]["upload"] != "true" || a.outcomes["uses:upload"] != "would run" {
		t.Errorf("a push does not upload: upload=%q", a.outputs["vet"]["upload"])
	}

	// A pull request from a fork: no upload, and a notice says why.
	fork := map[string]string{"event_name": "pull_request", "repository": "acme/shop", "event.pull_request.head.repo.full_name": "someone/shop", "actor": "someone", "action_ref": "", "action_path": ""}
	a = runAction(t, exampleWorkspace(t), bin, map[string]string{"working-directory": "services/orders", "annotations": "false"}, fork)
	if a.outputs["vet"]["upload"] != "false" || a.outcomes["upload"] != "skipped" {
		t.Errorf("a fork's pull request uploads: upload=%q, upload step %q", a.outputs["vet"]["upload"], a.outcomes["upload"])
	}
	notices := 0
	for _, c := range workflowcmd.All(a.log.String()) {
		if c.Name == "notice" && strings.Contains(c.Data, "SARIF upload skipped: a pull request from the fork someone/shop") {
			notices++
		}
		if c.Props["file"] != "" {
			t.Errorf("annotations: false still annotated %+v", c)
		}
	}
	if notices != 1 {
		t.Errorf("%d notices of the skipped upload, want 1:\n%s", notices, a.log.String())
	}
}

// TestActionInputs: the fail-on, config and baseline inputs reach
// lockaudit vet (a bad value fails the step with exit 2, not silently),
// and the module at the repository root gets paths without a prefix.
func TestActionInputs(t *testing.T) {
	bin := buildLockaudit(t)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/root\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(ws, "root.go"), []byte("package root\n\n//lockaudit:ignore LA103\nfunc F() {}\n"), 0o644)
	gh := map[string]string{"event_name": "push", "repository": "acme/shop", "actor": "dev", "action_ref": "", "action_path": ""}
	for _, tc := range []struct {
		inputs map[string]string
		code   string
		want   string
	}{
		{map[string]string{}, "3", "root.go:3:1: LA100 "},
		{map[string]string{"fail-on": "error"}, "0", "root.go:3:1: LA100 "},
		{map[string]string{"fail-on": "severe"}, "2", `-fail-on: unknown severity "severe"`},
		{map[string]string{"config": "missing.yaml"}, "2", "missing.yaml"},
		{map[string]string{"baseline": "base.json"}, "3", "::notice::no baseline file base.json"},
	} {
		a := runAction(t, ws, bin, tc.inputs, gh)
		if got := a.outputs["vet"]["exit-code"]; got != tc.code || !strings.Contains(a.log.String(), tc.want) {
			t.Errorf("inputs %v: exit-code %q, want %s and %q in the log:\n%s", tc.inputs, got, tc.code, tc.want, a.log.String())
		}
		if tc.code == "3" && a.outputs["vet"]["sarif-file"] != "lockaudit.sarif" {
			t.Errorf("sarif-file %q at the repository root", a.outputs["vet"]["sarif-file"])
		}
	}
	// A baseline recorded with lockaudit itself makes the finding known.
	if out, err := exec.Command(bin, "vet", "-C", ws, "-write-baseline", "base.json", "./...").CombinedOutput(); err != nil {
		t.Fatalf("write-baseline: %v\n%s", err, out)
	}
	a := runAction(t, ws, bin, map[string]string{"baseline": "base.json"}, gh)
	if got := a.outputs["vet"]["exit-code"]; got != "0" || a.failed != 0 {
		t.Errorf("with the baseline: exit-code %q, step %d\n%s", got, a.failed, a.log.String())
	}
}
