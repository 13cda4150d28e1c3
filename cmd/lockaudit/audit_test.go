package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/report/reportcheck"
	"github.com/lockaudit/lockaudit/rules"
)

// runIn runs lockaudit in-process with dir as the working directory and
// the given environment variables (and no others).
func runIn(t *testing.T, dir string, envv map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string { return envv[k] }
	code = run(servertest.Loopback(t), args, &env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv, Dir: dir})
	if testing.Verbose() {
		t.Logf("lockaudit %s -> exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return out.String(), errb.String(), code
}

func exampleDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(example)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// auditJSON audits the bundled example against the fleet that conn names
// (-addr ... or -sentinel ...) and returns the run (decoded from the JSON
// report), the exit code and stderr.
func auditJSON(t *testing.T, conn ...string) (*report.Run, int, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.json")
	args := append([]string{"audit", "-C", exampleDir(t), "-o", out}, conn...)
	stdout, stderr, code := runIn(t, t.TempDir(), nil, args...)
	if stdout != "" {
		t.Errorf("stdout with only -o: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no report (exit %d): %v\n%s", code, err, stderr)
	}
	r, err := report.DecodeRun(data)
	if err != nil {
		t.Fatalf("the report does not decode: %v", err)
	}
	return r, code, stderr
}

// exampleCodeFindings is what vet reports on the example; audit must keep
// every one of them next to the fleet's.
func exampleCodeFindings(t *testing.T, r *report.Run) {
	t.Helper()
	want := exampleExpectations(t)
	var got []expectation
	for _, f := range r.Findings {
		if f.Pos != nil {
			got = append(got, expectation{File: f.Pos.File, Line: f.Pos.Line, Rule: f.Rule})
		}
	}
	sortExpectations(got)
	if missing, extra := diffExpectations(want, got); len(missing)+len(extra) > 0 {
		t.Errorf("code findings differ from the example's marks:\nmissing %v\nextra %v", missing, extra)
	}
}

func reasonsWith(r *report.Run, parts ...string) string {
	for _, reason := range r.Verdict.Strings() {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(reason, p)
		}
		if ok {
			return reason
		}
	}
	return ""
}

// TestAuditAll91Safe is the Done-when's (a): on an all-9.1 fleet the
// example's release and extend paths are safe and Lua is available, each
// reason tied to the code; the run still exits 3 for the code findings.
func TestAuditAll91Safe(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	r, code, stderr := auditJSON(t, "-addr", n[0].Addr)
	if r.Command != "audit" || r.Time == "" || r.Topology != "replication" || len(r.Nodes) != 2 {
		t.Errorf("command %q, time %q, topology %q, %d nodes", r.Command, r.Time, r.Topology, len(r.Nodes))
	}
	v := r.Verdict
	if v == nil || v.Of(rules.NativeRelease).Word() != report.Safe || v.Of(rules.NativeExtend).Word() != report.Safe || v.Of(rules.LuaScripts).Word() != report.Available {
		t.Fatalf("verdict %+v, want safe, safe, available", v)
	}
	for _, want := range [][]string{
		{"native_release: safe — the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) and every node that can become primary (2) has DELIFEQ"},
		{"native_extend: safe — the code extends with SET IFEQ (billing/billing.go:74, checkout/checkout.go:53 and 1 more)"},
		{"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13), reports/reports.go:27: redsync Mutex.UnlockContext (Lua release) and 2 more)"},
	} {
		if reasonsWith(r, want...) == "" {
			t.Errorf("no reason with %q:\n%s", want, strings.Join(v.Strings(), "\n"))
		}
	}
	var uses []string
	for _, u := range r.Uses {
		uses = append(uses, fmt.Sprintf("%s:%d", u.Command, len(u.Sites)))
	}
	if got := strings.Join(uses, " "); got != "delifeq:6 ifeq:3 lua:4" {
		t.Errorf("uses %s, want delifeq:6 ifeq:3 lua:4", got)
	}
	for _, f := range r.Findings {
		if f.Pos == nil && f.Severity.String() == "error" {
			t.Errorf("error node finding on a safe fleet: %+v", f)
		}
	}
	exampleCodeFindings(t, r)
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3 (the example's code findings)", code)
	}
	if !strings.Contains(stderr, "lockaudit audit: release safe, extend safe, lua available;") {
		t.Errorf("stderr summary: %s", stderr)
	}
	if strings.ContainsAny(stderr, "\r\033") {
		t.Errorf("progress on a stderr that is not a terminal: %q", stderr)
	}
}

// TestAuditPromotable81Unsafe is (b): a promotable 8.1 replica makes the
// release unsafe; the reason names the node and the code line, and says
// what to change first.
func TestAuditPromotable81Unsafe(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	r, code, _ := auditJSON(t, "-addr", n[0].Addr)
	v := r.Verdict
	if v.Of(rules.NativeRelease).Word() != report.Unsafe || v.Of(rules.NativeExtend).Word() != report.Safe || v.Of(rules.LuaScripts).Word() != report.Available {
		t.Fatalf("verdict %s/%s/%s, want unsafe/safe/available:\n%s", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word(), strings.Join(v.Strings(), "\n"))
	}
	want := "native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) but replica " + n[2].Addr + " (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command)); upgrade " + n[2].Addr + " from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)"
	if reasonsWith(r, want) == "" {
		t.Errorf("reasons lack\n  %s\ngot\n  %s", want, strings.Join(v.Strings(), "\n  "))
	}
	la201 := 0
	for _, f := range r.Findings {
		if f.Rule == "LA201" {
			la201++
			if f.Node != n[2].Addr {
				t.Errorf("LA201 on %s, want %s", f.Node, n[2].Addr)
			}
		}
	}
	if la201 != 1 {
		t.Errorf("%d LA201 findings, want 1", la201)
	}
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3", code)
	}
}

// TestAuditLuaUnloaded is (c): on a 9.1 node whose Lua engine is unloaded,
// the example's Lua-based release breaks, and the reason says so.
func TestAuditLuaUnloaded(t *testing.T) {
	s := servertest.Start(t, servertest.Config{ModuleCommand: true})
	s.UnloadLua(t)
	r, code, _ := auditJSON(t, "-addr", s.Addr)
	v := r.Verdict
	if v.Of(rules.LuaScripts).Word() != report.Missing || v.Of(rules.NativeRelease).Word() != report.Safe || v.Of(rules.NativeExtend).Word() != report.Safe {
		t.Fatalf("verdict %s/%s/%s, want safe/safe/missing", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word())
	}
	want := "lua: missing — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13), reports/reports.go:27: redsync Mutex.UnlockContext (Lua release) and 2 more) but primary " + s.Addr + " (Valkey 9.1.2, promotable) cannot run Lua (INFO scriptingengines: engines_count:0, no Lua engine); give " + s.Addr + " a Lua engine"
	if reasonsWith(r, want) == "" {
		t.Errorf("reasons lack\n  %s\ngot\n  %s", want, strings.Join(v.Strings(), "\n  "))
	}
	found := false
	for _, f := range r.Findings {
		found = found || f.Rule == "LA203" && f.Node == s.Addr
	}
	if !found {
		t.Errorf("no LA203 on %s", s.Addr)
	}
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3", code)
	}
}

// TestAuditFormatsAndRender: one audit writes every format at once; each
// carries the same findings and verdict; `render` of the JSON reproduces
// each file byte for byte; and the exit status is the same everywhere.
func TestAuditFormatsAndRender(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	dir := t.TempDir()
	formats := map[string]string{"json": "run.json", "html": "report.html", "sarif": "report.sarif", "markdown": "report.md", "text": "report.txt"}
	// -target valkey-9.0: the code judged at the release the team aims for
	// (the example's marks), not the fleet's own (see TestAuditDerivesTarget).
	args := []string{"audit", "-C", exampleDir(t), "-addr", n[0].Addr, "-target", "valkey-9.0"}
	for _, f := range []string{"json", "html", "sarif", "markdown", "text"} {
		args = append(args, "-o", filepath.Join(dir, formats[f]))
	}
	_, stderr, code := runIn(t, dir, nil, args...)
	if code != report.ExitFindings {
		t.Fatalf("audit exit %d, want 3:\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	if *golden.Update {
		saveAuditFixture(t, r, n[0].Addr, n[1].Addr)
	}
	// run.json against what the test knows independently of lockaudit:
	// the example's marked lines, and this fleet — a 9.1 primary and a
	// promotable 8.1 replica, so the release is unsafe there and only
	// there, the extend safe (8.1 has SET IFEQ) and Lua available.
	exampleCodeFindings(t, r)
	if v := r.Verdict; v == nil || v.Of(rules.NativeRelease).Word() != report.Unsafe || v.Of(rules.NativeExtend).Word() != report.Safe || v.Of(rules.LuaScripts).Word() != report.Available {
		t.Errorf("run.json verdict %+v, want unsafe/safe/available", v)
	}
	var la201 []string
	for _, f := range r.Findings {
		if f.Rule == "LA201" {
			la201 = append(la201, f.Node)
		}
	}
	if len(la201) != 1 || la201[0] != n[1].Addr {
		t.Errorf("run.json has LA201 on %v, want only on the 8.1 replica %s", la201, n[1].Addr)
	}
	// A run from another schema version is refused, naming the versions.
	other := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(other, bytes.Replace(data, []byte(`"schema_version": 3`), []byte(`"schema_version": 4`), 1), 0o644)
	_, rstderr, rcode := runIn(t, dir, nil, "render", "-o", filepath.Join(t.TempDir(), "x.html"), other)
	if rcode != report.ExitFailed || !strings.Contains(rstderr, "schema_version 4, but this lockaudit reads schema_version 1 to 3") {
		t.Errorf("render of a schema_version 4 run: exit %d, %s", rcode, rstderr)
	}
	for format, name := range formats {
		orig, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if format != "json" { // run.json is r itself, checked above
			for _, problem := range carries(r, format, string(orig)) {
				t.Errorf("%s: %s", name, problem)
			}
		}
		again := filepath.Join(t.TempDir(), name)
		_, rstderr, rcode := runIn(t, dir, nil, "render", "-exit-status", "-o", again, filepath.Join(dir, "run.json"))
		if rcode != code {
			t.Errorf("render -exit-status -o %s: exit %d, the audit's was %d\n%s", name, rcode, code, rstderr)
		}
		re, err := os.ReadFile(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(orig, re) {
			t.Errorf("render of run.json to %s differs from the audit's own %s at %s", format, name, firstDiff(string(re), string(orig)))
		}
	}
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// carries checks that a report rendered from r shows every active
// finding (rule and where: file:line or node) and r's verdict as its
// headline, exactly (reportcheck: each value in its place in the layout, so
// "safe" is never found inside "unsafe"). It reads SARIF in its own
// structure; report's TestFormatsAgree checks each layout in depth (on
// testdata/audit-example.json, a saved run of this test).
func carries(r *report.Run, format, out string) []string {
	var problems []string
	if p := reportcheck.Check(format, []byte(out), reportcheck.Of(r.Verdict)); p != "" {
		problems = append(problems, p)
	}
	if p := reportcheck.CheckBanner(format, []byte(out), r); p != "" {
		problems = append(problems, p)
	}
	switch format {
	case "sarif":
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID string `json:"ruleId"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
			return append(problems, fmt.Sprintf("not one SARIF run: %v", err))
		}
		if got, want := len(log.Runs[0].Results), len(r.Findings); got != want {
			problems = append(problems, fmt.Sprintf("%d results, want %d", got, want))
		}
		return problems
	case "html":
		out = html.UnescapeString(tagRE.ReplaceAllString(out, " "))
	case "markdown":
		out = strings.ReplaceAll(out, `\`, "")
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, f := range r.Active() {
		where := f.Node
		if f.Pos != nil {
			where = fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line)
		}
		if !strings.Contains(flat, where) || !strings.Contains(flat, string(f.Rule)) {
			problems = append(problems, fmt.Sprintf("lacks %s at %s", f.Rule, where))
		}
	}
	return problems
}

// saveAuditFixture writes the run as testdata/audit-example.json, with the
// loopback ports and the time made stable, so report's format tests cover
// a real audit run (`go test ./cmd/lockaudit -run TestAuditFormatsAndRender
// -update`, then review the diff and run `go test ./report -update` for its
// goldens).
func saveAuditFixture(t *testing.T, r *report.Run, primary, replica string) {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Render(&buf, r, "json"); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	s = strings.ReplaceAll(s, primary, "127.0.0.1:7001")
	s = strings.ReplaceAll(s, replica, "127.0.0.1:7002")
	s = regexp.MustCompile(`"time": "[^"]*"`).ReplaceAllString(s, `"time": "2025-06-02T09:00:00Z"`)
	s = regexp.MustCompile(`"version": "[^"]*",\n    "command"`).ReplaceAllString(s, "\"version\": \"(devel)\",\n    \"command\"")
	stable, err := report.DecodeRun([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	stable.Sort() // the stand-in ports may sort the node findings differently
	for i := range stable.Findings {
		stable.Findings[i].ID = "" // a node finding's hashed the live port: made again from the stand-in
	}
	// The example lives in lockaudit's own work tree: its revision and
	// state are lockaudit's, and the probe's window is this run's.
	stable.Source = &report.Source{Module: "example.com/orders"}
	stable.Probed = &report.Window{Start: "2025-06-02T08:59:59.800Z", End: "2025-06-02T09:00:00.000Z"}
	buf.Reset()
	if err := render.Render(&buf, stable, "json"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "audit-example.json"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAuditUnreachableSeed: no node can be probed, so the fleet half did
// not run: exit 1 (an audit without its fleet must not pass as "findings"),
// with the code findings still reported and the node and reason named.
func TestAuditUnreachableSeed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	stdout, stderr, code := runIn(t, t.TempDir(), nil, "audit", "-C", exampleDir(t), "-timeout", "1s", "-addr", addr)
	if code != report.ExitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, "# "+addr) || !strings.Contains(stdout, "connection refused") {
		t.Errorf("stdout does not name the node and the reason:\n%s", stdout)
	}
	if !strings.Contains(stdout, "billing/billing.go:13:21: LA101") {
		t.Errorf("the code findings are missing:\n%s", stdout)
	}
	if !strings.Contains(stderr, "lockaudit audit: release unknown, extend unknown, lua unknown;") || !strings.Contains(stderr, addr+": could not be probed") {
		t.Errorf("stderr summary: %s", stderr)
	}
}

// TestAuditUsageErrors: bad flags are exit 2 before anything runs, and a
// password never comes from a flag.
func TestAuditUsageErrors(t *testing.T) {
	ex := exampleDir(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-C", ex}, "no address to probe: give -addr HOST[:PORT][,HOST[:PORT]]"},
		{[]string{"-C", ex, "-password", "hunter2-secret", "-addr", "127.0.0.1:6379"}, "LOCKAUDIT_PASSWORD"},
		{[]string{"-C", ex, "-addr", "redis://:hunter2-secret@127.0.0.1:6379"}, "looks like a URL"},
		{[]string{"-C", ex, "-addr", "127.0.0.1:6379", "-o", "report.pdf"}, `cannot tell the format of "report.pdf"`},
		{[]string{"-C", ex, "-addr", "127.0.0.1:6379", "-format", "yaml"}, `unknown -format "yaml"`},
		{[]string{"-C", ex, "-addr", "127.0.0.1:6379", "-o", "/nonexistent/dir/r.html"}, "the folder /nonexistent/dir does not exist"},
		{[]string{"-C", ex, "-addr", "127.0.0.1:6379", "-target", "valkey-1.0"}, "-target"},
		{[]string{"-C", ex, "-master", "m", "-addr", "127.0.0.1:6379"}, "-master needs -sentinel"},
		{[]string{"-C", ex, "-addr", "127.0.0.1:63790000"}, `"127.0.0.1:63790000" is not HOST:PORT`},
		{[]string{"-C", ex, "./...", "-addr", "127.0.0.1:6379", "-o", "x.pdf"}, `cannot tell the format of "x.pdf"`}, // flags after the patterns are read
	} {
		stdout, stderr, code := runIn(t, t.TempDir(), nil, append([]string{"audit"}, tt.args...)...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("audit %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
		if strings.Contains(stdout+stderr, "hunter2-secret") {
			t.Errorf("audit %q echoed the password", tt.args)
		}
	}
}

// TestAuditConfigDefaults: the config file's probe: section supplies the
// seed and options; a flag wins over it.
func TestAuditConfigDefaults(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fileAddr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "lockaudit.yaml")
	if err := os.WriteFile(cfg, []byte("probe:\n  addrs: ["+fileAddr+"]\n  timeout: 1s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code := runIn(t, dir, nil, "audit", "-C", exampleDir(t), "-config", cfg, "-rules", "LA101")
	if code != report.ExitFailed || !strings.Contains(stdout, "# "+fileAddr) {
		t.Errorf("the config's probe.addrs was not used (exit %d):\n%s", code, stdout)
	}
	l2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	flagAddr := l2.Addr().String()
	l2.Close()
	stdout, _, _ = runIn(t, dir, nil, "audit", "-C", exampleDir(t), "-config", cfg, "-rules", "LA101", "-addr", flagAddr)
	if !strings.Contains(stdout, "# "+flagAddr) || strings.Contains(stdout, fileAddr) {
		t.Errorf("-addr did not replace the config's addrs:\n%s", stdout)
	}
}

// TestAuditSentinel: through Sentinel, an 8.1 replica at replica-priority
// 0 is never promoted, so the example's DELIFEQ release is safe; the same
// replica at the default priority makes it unsafe.
func TestAuditSentinel(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	for _, tt := range []struct {
		priority string
		release  string
	}{{"0", report.Safe}, {"100", report.Unsafe}} {
		n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81, Args: []string{"--replica-priority", tt.priority}}, Of: 0})
		ss := servertest.StartSentinels(t, n[0], "orders", 1, 1, servertest.Config{})
		r, _, _ := auditJSON(t, "-sentinel", ss[0].Addr, "-master", "orders")
		if r.Topology != "sentinel" || r.Verdict.Of(rules.NativeRelease).Word() != tt.release {
			t.Errorf("replica-priority %s: topology %s, release %s; want sentinel, %s:\n%s", tt.priority, r.Topology, r.Verdict.Of(rules.NativeRelease).Word(), tt.release, strings.Join(r.Verdict.Strings(), "\n"))
		}
	}
}
