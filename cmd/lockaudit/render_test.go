package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// savedRuns are the report package's hand-built runs (an unsafe Sentinel
// audit, a safe audit, a cluster probe with an unreachable node, a vet run).
var savedRuns = []string{"audit-unsafe", "audit-safe", "probe-cluster", "vet-only"}

func savedRun(t *testing.T, name string) *report.Run {
	t.Helper()
	return readJSONRun(t, filepath.Join("..", "..", "report", "testdata", name+".json"))
}

// builtRun is made in Go, not decoded, so it has what JSON cannot carry:
// nil maps and slices where a decoded run has empty ones, and findings in
// producer order. Re-rendering must not depend on either.
func builtRun() *report.Run {
	r := report.New("audit", "v1.2.3")
	r.Packages = []string{"./..."}
	r.Findings = []report.Finding{
		{Rule: "LA201", Severity: rules.Error, Message: "replica 10.0.0.7:6379 (Valkey 8.1.1) can become primary and has no DELIFEQ", Node: "10.0.0.7:6379"},
		{Rule: "LA103", Severity: rules.Error, Message: `plain DEL of "lock:x" <script>alert(1)</script> | pipe`, Pos: &report.Position{File: "a/b.go", Line: 9, Col: 3}, Source: "\trdb.Del(ctx, \"lock:x\") // `tick`"},
	}
	r.Uses = []report.Use{{Command: rules.UseDELIFEQ}}
	r.Topology = "replication"
	r.Nodes = []report.Node{
		{Addr: "10.0.0.7:6379", Role: "replica", Promotable: report.PromotableYes, Server: "valkey", Version: "8.1.1", Lua: report.Yes, DELIFEQ: report.No, DELEX: report.No, SetIFEQ: report.Yes, Primary: "10.0.0.5:6379"},
		{Addr: "10.0.0.5:6379", Role: "primary", Promotable: report.PromotableYes, Server: "valkey", Version: "9.0.0", Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.No, SetIFEQ: report.Yes,
			Config: map[string]string{}, Errors: []string{}, Notes: []string{}, Evidence: []report.Evidence{}},
	}
	// A verdict without checks, as a schema 1 run has: the three words.
	r.Verdict = report.NewVerdict()
	r.Verdict.Paths[rules.NativeRelease].Safe = report.No
	r.Verdict.Paths[rules.NativeExtend].Safe = report.Yes
	r.Verdict.Paths[rules.LuaScripts].Safe = report.Yes
	return r
}

// jsonDoc is a saved run as a hand editor sees it.
type jsonDoc = map[string]any

// editJSON renders r to JSON, lets edit change it as a person editing
// the file would, and returns the edited file.
func editJSON(t *testing.T, r *report.Run, edit func(d jsonDoc)) []byte {
	t.Helper()
	var d jsonDoc
	if err := json.Unmarshal(renderTo(t, r, "json"), &d); err != nil {
		t.Fatal(err)
	}
	edit(d)
	out, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// at walks a decoded JSON document: keys of objects, indexes of arrays.
func at(d any, path ...any) jsonDoc {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			d = d.(jsonDoc)[k]
		case int:
			d = d.([]any)[k]
		}
	}
	return d.(jsonDoc)
}

// renderCLI runs `lockaudit render` in-process with stdin and a work dir.
func renderCLI(t *testing.T, dir string, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"render"}, args...), &env{Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Dir: dir})
	return out.String(), errb.String(), code
}

func renderTo(t *testing.T, r *report.Run, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Render(&buf, r, format); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return buf.Bytes()
}

// TestRenderReproducesEveryFormat: rendering a run directly to a format and
// rendering its saved JSON with `lockaudit render` give the same bytes, for
// every registered format, and the same exit status as the run itself.
func TestRenderReproducesEveryFormat(t *testing.T) {
	empty := report.New("vet", "v1.2.3")
	empty.Findings = nil
	runs := map[string]*report.Run{"built": builtRun(), "empty": empty}
	for _, name := range savedRuns {
		runs[name] = savedRun(t, name)
	}
	if len(render.Formats()) < 2 {
		t.Fatalf("only %v registered", render.Formats())
	}
	for name, r := range runs {
		saved := renderTo(t, r, "json")
		for _, format := range render.Formats() {
			t.Run(name+"/"+format, func(t *testing.T) {
				want := renderTo(t, r, format)
				out, stderr, code := renderCLI(t, t.TempDir(), saved, "-format", format, "-exit-status")
				if code != report.ExitCode(r) {
					t.Errorf("-exit-status: exit %d, want the run's own %d; stderr: %s", code, report.ExitCode(r), stderr)
				}
				if out != string(want) {
					t.Errorf("render -format %s of the saved run differs from rendering the run directly:\n%s", format, firstDiff(out, string(want)))
				}
			})
		}
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return "(no line differs; trailing bytes?)"
}

// TestRenderExitStatus: render exits 0 once the report is written, whatever
// the run found (set -e scripts go on); -exit-status gives the saved run's
// own status, computed as the original command did.
func TestRenderExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"audit-unsafe", report.ExitFindings},
		{"audit-safe", report.ExitOK},
		{"probe-cluster", report.ExitUnknown},
		{"vet-only", report.ExitFindings},
	} {
		saved := renderTo(t, savedRun(t, tc.name), "json")
		dir := t.TempDir()
		if _, stderr, code := renderCLI(t, dir, saved, "-o", "r.md"); code != 0 {
			t.Errorf("%s: exit %d after writing the report, want 0; stderr: %s", tc.name, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "r.md")); err != nil {
			t.Errorf("%s: the report was not written: %v", tc.name, err)
		}
		if _, stderr, code := renderCLI(t, t.TempDir(), saved, "-format", "markdown", "-exit-status"); code != tc.want {
			t.Errorf("%s -exit-status: exit %d, want %d; stderr: %s", tc.name, code, tc.want, stderr)
		}
	}
	incomplete := builtRun()
	incomplete.Errors = []report.Error{{Where: "10.0.0.9:6379", Message: "dial tcp: connection refused"}}
	saved := renderTo(t, incomplete, "json")
	if _, _, code := renderCLI(t, t.TempDir(), saved, "-format", "html"); code != 0 {
		t.Errorf("an incomplete run re-renders with exit %d, want 0", code)
	}
	if _, _, code := renderCLI(t, t.TempDir(), saved, "-exit-status", "-format", "html"); code != report.ExitFailed {
		t.Errorf("an incomplete run re-renders -exit-status with exit %d, want %d", code, report.ExitFailed)
	}
	// A report that cannot be written is a failure either way.
	if _, _, code := renderCLI(t, t.TempDir(), saved, "-o", "/nonexistent/dir/r.html"); code != report.ExitFailed {
		t.Errorf("unwritable report: exit %d, want 1", code)
	}
}

func TestRenderFileArgumentAndOutputs(t *testing.T) {
	dir := t.TempDir()
	r := savedRun(t, "audit-unsafe")
	if err := os.WriteFile(filepath.Join(dir, "run.json"), renderTo(t, r, "json"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := renderCLI(t, dir, nil, "-o", "report.html", "-o", "report.md", "-o", "report.sarif", "run.json")
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	if out != "" {
		t.Errorf("with -o nothing goes to stdout, got %q", out)
	}
	if !strings.Contains(stderr, "report written to report.html, report.md, report.sarif") {
		t.Errorf("stderr does not say where the reports went: %s", stderr)
	}
	for file, format := range map[string]string{"report.html": "html", "report.md": "markdown", "report.sarif": "sarif"} {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, renderTo(t, r, format)) {
			t.Errorf("%s is not the %s rendering of the run", file, format)
		}
	}
	// -format overrides the extension; "-" is stdout; "-" is also stdin.
	out, _, _ = renderCLI(t, dir, renderTo(t, r, "json"), "-format", "markdown", "-o", "-", "-")
	if out != string(renderTo(t, r, "markdown")) {
		t.Errorf("-o - with -format markdown did not write Markdown to stdout")
	}
	// Without -o and -format: text on stdout.
	out, _, _ = renderCLI(t, dir, nil, "run.json")
	if out != string(renderTo(t, r, "text")) {
		t.Errorf("the default is text on stdout")
	}
	// Nothing temporary is left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestRenderBadInput(t *testing.T) {
	good := string(renderTo(t, builtRun(), "json"))
	for _, tc := range []struct {
		name  string
		input string
		args  []string
		code  int
		want  []string // all in stderr
	}{
		{"other schema version", `{"schema_version": 4, "tool": {"name": "lockaudit", "version": "v4.0.0"}, "findings": []}`, nil, 1,
			[]string{"schema_version 4", "reads schema_version 1 to 3", "lockaudit v4.0.0"}},
		{"no schema version", `{"findings": []}`, nil, 1, []string{"no schema_version", "not a lockaudit JSON run"}},
		{"unknown field", strings.Replace(good, `"command": "audit",`, `"command": "audit",`+"\n  \"colour\": \"blue\",", 1), nil, 1,
			[]string{`unknown field "colour"`, "line 8, column 3"}},
		{"malformed", "{\n  \"schema_version\": 1,\n  \"findings\": [,]\n}", nil, 1, []string{"line 3, column 16", "malformed JSON"}},
		{"truncated", good[:len(good)/2], nil, 1, []string{"malformed JSON"}},
		{"wrong type", "{\"schema_version\": 1,\n \"nodes\": [{\"addr\": \"a:1\", \"version\": 9.1}]}", nil, 1, []string{"line 2", "nodes[0].version", "want string, got JSON number"}},
		{"array", `[]`, nil, 1, []string{"not a lockaudit JSON run", "array"}},
		{"empty", "  \n", nil, 1, []string{"empty input"}},
		{"two runs", good + good, nil, 1, []string{"after top-level value"}},
		{"bad severity", "{\"schema_version\": 1, \"findings\": [{\"rule\": \"LA103\",\n \"severity\": \"fatal\", \"message\": \"m\", \"node\": \"a:1\"}]}", nil, 1, []string{`findings[0].severity: unknown severity "fatal"`, "line 2"}},
		{"no severity", `{"schema_version": 1, "command": "vet", "findings": [{"rule": "LA103", "message": "m", "node": "a:1"}]}`, nil, 1, []string{"stdin: findings[0].severity: missing"}},
		{"no location", `{"schema_version": 1, "command": "vet", "findings": [{"rule": "LA103", "severity": "error", "message": "m"}]}`, nil, 1, []string{"findings[0] (LA103)", "either pos (code) or node"}},
		{"unjustified suppression", `{"schema_version": 1, "command": "vet", "findings": [{"rule": "LA103", "severity": "error", "message": "m", "node": "a:1", "suppressed": {"kind": "inSource", "justification": ""}}]}`, nil, 1, []string{"findings[0].suppressed.justification: missing"}},
		{"no command", `{"schema_version": 1, "findings": []}`, nil, 1, []string{`stdin: command: "" is not one of vet, probe, audit, preflight`}},
		{"data after the run", good + "}", nil, 1, []string{"stdin: line ", "after top-level value"}},
		{"unknown format", good, []string{"-format", "pdf"}, 2, []string{`unknown -format "pdf"`, "html, json, markdown, sarif, text"}},
		{"unknown extension", good, []string{"-o", "report.pdf"}, 2, []string{"report.pdf", "extension"}},
		{"two inputs", good, []string{"a.json", "b.json"}, 2, []string{"one input at a time"}},
		{"missing file", good, []string{"nope.json"}, 1, []string{"nope.json", "no such file"}},
		{"unknown flag", good, []string{"-colour"}, 2, []string{"-colour"}},
		{"unwritable output", good, []string{"-o", filepath.Join("no", "such", "dir", "r.html")}, 1, []string{"r.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := renderCLI(t, t.TempDir(), []byte(tc.input), tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tc.code != 0 && out != "" {
				t.Errorf("a failed render wrote to stdout: %.200q", out)
			}
		})
	}
}

func TestRenderUnknownRuleWarnsAndStillRenders(t *testing.T) {
	r := builtRun()
	r.Findings[1].Rule = "LA199"
	out, stderr, code := renderCLI(t, t.TempDir(), renderTo(t, r, "json"), "-format", "html", "-exit-status")
	if code != report.ExitCode(r) {
		t.Errorf("exit %d, want %d", code, report.ExitCode(r))
	}
	if !strings.Contains(stderr, "rule LA199 is not in this lockaudit's catalog") || !strings.Contains(stderr, "lockaudit v1.2.3") {
		t.Errorf("no warning naming the rule and the writer: %s", stderr)
	}
	if !strings.Contains(out, "LA199") {
		t.Errorf("the report drops the finding of the unknown rule")
	}
}

// TestRenderFailsClosed: a saved run whose values the renderers and the
// exit status would misread — a verdict or node answer outside its set
// (upper case, empty, made up), a position before line 1 or a negative
// column, a fleet finding that contradicts the verdict — is refused with
// exit 1 and an error naming the file and the field, and no report is
// written (a fail-open render once exited 0 on "UNSAFE").
func TestRenderFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(d jsonDoc)
		want string
	}{
		{"verdict made up", func(d jsonDoc) { at(d, "verdict")["native_release"] = "bogus" }, `run.json: verdict.native_release: "bogus" is not one of safe, unsafe, unknown`},
		{"verdict upper case", func(d jsonDoc) { at(d, "verdict")["native_release"] = "UNSAFE" }, `run.json: verdict.native_release: "UNSAFE" is not one of safe, unsafe, unknown`},
		{"verdict empty", func(d jsonDoc) { at(d, "verdict")["native_extend"] = "" }, `run.json: verdict.native_extend: "" is not one of safe, unsafe, unknown`},
		{"lua verdict", func(d jsonDoc) { at(d, "verdict")["lua"] = "safe" }, `run.json: verdict.lua: "safe" is not one of available, missing, unknown`},
		{"verdict missing a word", func(d jsonDoc) { delete(at(d, "verdict"), "lua") }, `run.json: verdict.lua: "" is not one of available, missing, unknown`},
		{"node answer", func(d jsonDoc) { at(d, "nodes", 0)["delifeq"] = "maybe" }, `run.json: nodes[0].delifeq: "maybe" is not one of yes, no, unknown`},
		{"node answer missing", func(d jsonDoc) { delete(at(d, "nodes", 1), "set_ifeq") }, `run.json: nodes[1].set_ifeq: missing`},
		{"node role", func(d jsonDoc) { at(d, "nodes", 1)["role"] = "leader" }, `run.json: nodes[1].role: "leader" is not one of primary, replica, sentinel, unknown`},
		{"promotable", func(d jsonDoc) { at(d, "nodes", 0)["promotable"] = "" }, `run.json: nodes[0].promotable: "" is not one of yes, no, manual, unknown`},
		{"server", func(d jsonDoc) { at(d, "nodes", 0)["server"] = "keydb" }, `run.json: nodes[0].server: "keydb" is not one of valkey, redis, unknown`},
		{"use", func(d jsonDoc) { at(d, "uses", 0)["command"] = "evalsha" }, `run.json: uses[0].command: "evalsha" is not one of delifeq, delex, ifeq, lua`},
		{"negative line", func(d jsonDoc) { at(d, "findings", 1, "pos")["line"] = -3 }, "run.json: findings[1].pos.line: -3 is not a line number"},
		{"line zero", func(d jsonDoc) { at(d, "findings", 1, "pos")["line"] = 0 }, "run.json: findings[1].pos.line: 0 is not a line number"},
		{"negative column", func(d jsonDoc) { at(d, "findings", 1, "pos")["col"] = -1 }, "run.json: findings[1].pos.col: -1 is not a column"},
		{"negative site", func(d jsonDoc) {
			at(d, "uses", 0)["sites"] = []any{jsonDoc{"pos": jsonDoc{"file": "a/b.go", "line": -1, "col": 1}, "what": "DELIFEQ release"}}
		}, "run.json: uses[0].sites[0].pos.line: -1"},
		{"suppression kind", func(d jsonDoc) {
			at(d, "findings", 1)["suppressed"] = jsonDoc{"kind": "whatever", "justification": "x"}
		}, `run.json: findings[1].suppressed.kind: "whatever" is not one of inSource, external`},
		{"verdict contradicts a finding", func(d jsonDoc) {
			at(d, "nodes", 0)["delifeq"] = "yes"
			at(d, "verdict")["native_release"] = "safe"
		}, `run.json: verdict.native_release: "safe", but finding LA201 on 10.0.0.7:6379 says it is unsafe`},
		{"verdict contradicts a node", func(d jsonDoc) { at(d, "verdict")["native_release"] = "safe" }, `run.json: verdict.native_release: "safe", but node 10.0.0.7:6379 (promotable yes) answers delifeq no`},
		{"safe over an unknown node", func(d jsonDoc) { at(d, "nodes", 1)["set_ifeq"] = "unknown" }, `run.json: verdict.native_extend: "safe", but node 10.0.0.5:6379 (promotable yes) answers ifeq unknown`},
		{"error finding without a verdict", func(d jsonDoc) { delete(d, "verdict") }, "run.json: findings: LA201 on 10.0.0.7:6379, but the run has no verdict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "run.json"), editJSON(t, builtRun(), tc.edit), 0o644)
			out, stderr, code := renderCLI(t, dir, nil, "-o", "report.sarif", "-o", "report.md", "-o", "-", "run.json")
			if code != report.ExitFailed || !strings.Contains(stderr, "lockaudit render: "+tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tc.want)
			}
			if out != "" {
				t.Errorf("stdout: %.200q", out)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("files written: %v", ents)
			}
		})
	}
	// The unedited run renders (the cases above fail for their edit).
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "run.json"), editJSON(t, builtRun(), func(jsonDoc) {}), 0o644)
	if _, stderr, code := renderCLI(t, dir, nil, "-exit-status", "-o", "report.sarif", "run.json"); code != report.ExitCode(builtRun()) {
		t.Errorf("the unedited run: exit %d\n%s", code, stderr)
	}
}

// A saved run of huge texts (a scan of huge key names writes one) renders
// with each text cut to report.MaxRunText, saying so, in render and in
// diff; a run too large even so (here: too many objects) is refused, exit 1, nothing written
// (docs/reliability.md#saved-runs).
func TestRenderAndDiffBoundLargeRuns(t *testing.T) {
	dir := t.TempDir()
	huge := builtRun()
	huge.Findings[1].Message = "plain DEL of \"" + strings.Repeat("k", 3*report.MaxRunText) + "\""
	write := func(name string, r *report.Run) string {
		if err := os.WriteFile(filepath.Join(dir, name), renderTo(t, r, "json"), 0o600); err != nil {
			t.Fatal(err)
		}
		return name
	}
	hugeFile := write("huge.json", huge)
	out, stderr, code := renderCLI(t, dir, nil, "-format", "json", hugeFile)
	if code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, " more bytes cut]") || len(out) > 2*report.MaxRunText {
		t.Errorf("render: the huge message is not cut (%d bytes out)", len(out))
	}
	var diffOut, diffErr bytes.Buffer
	e := &env{Stdin: strings.NewReader(""), Stdout: &diffOut, Stderr: &diffErr, Getenv: func(string) string { return "" }, Dir: dir}
	code = run(context.Background(), []string{"diff", "-format", "json", hugeFile, hugeFile}, e)
	if code != 0 || !strings.Contains(diffOut.String(), " more bytes cut]") || diffOut.Len() > 4*report.MaxRunText {
		t.Errorf("diff: exit %d, %d bytes out (cut: %v): %s", code, diffOut.Len(), strings.Contains(diffOut.String(), " more bytes cut]"), diffErr.String())
	}

	large := builtRun()
	for i := range report.MaxRunKept / 150 {
		large.Findings = append(large.Findings, report.Finding{Rule: "LA103", Severity: rules.Error, Message: "plain DEL of lock:" + strconv.Itoa(i), Pos: &report.Position{File: "a/b.go", Line: i + 1, Col: 1}})
	}
	largeFile := write("large.json", large)
	out, stderr, code = renderCLI(t, dir, nil, "-o", "r.html", largeFile)
	if code != 1 || !strings.Contains(stderr, "large.json: ") || !strings.Contains(stderr, "too large to render (docs/reliability.md#saved-runs)") {
		t.Errorf("render of a run past MaxRunKept: exit %d, stderr %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.html")); err == nil || out != "" {
		t.Errorf("a refused run wrote a report")
	}
	diffErr.Reset()
	if code = run(context.Background(), []string{"diff", hugeFile, largeFile}, e); code != 1 || !strings.Contains(diffErr.String(), "too large to render") {
		t.Errorf("diff with a run past MaxRunKept: exit %d, stderr %s", code, diffErr.String())
	}
}
