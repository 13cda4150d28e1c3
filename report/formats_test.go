package report_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
	"github.com/lockaudit/lockaudit/rules"
)

// formatsRun has every part a Run can have: code findings (active,
// suppressed in source, suppressed by a baseline), uses, nodes, node
// findings, a verdict and errors.
func formatsRun() *report.Run {
	r := report.New("audit", "v0.0.0-test")
	r.Target = "valkey-9.0"
	r.Packages = []string{"./..."}
	r.Rules = []string{"LA101", "LA103", "LA104", "LA201"}
	r.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Message: "plain DEL releases lock key \"lock:{order}\"", Pos: &report.Position{File: "orders/lock.go", Line: 42, Col: 2}, Source: "rdb.Del(ctx, \"lock:{order}\")"},
		{Rule: "LA101", Severity: rules.Warning, Message: "Lua compare-and-delete: use DELIFEQ (Valkey 9.0+)", Pos: &report.Position{File: "orders/lua.go", Line: 9, Col: 18}, Source: "var release = redis.NewScript(`if redis.call(\"get\", KEYS[1]) == ARGV[1] then`"},
		{Rule: "LA104", Severity: rules.Error, Message: "SET IFEQ without a TTL makes the lock permanent", Pos: &report.Position{File: "orders/lock.go", Line: 60, Col: 9}, Source: "rdb.SetIFEQ(ctx, key, tok, tok, 0)", Suppressed: &report.Suppression{Kind: "inSource", Justification: "the key is deleted by the reaper"}},
		{Rule: "LA103", Severity: rules.Error, Message: "plain DEL releases lock key \"lock:old\"", Pos: &report.Position{File: "legacy/old.go", Line: 7, Col: 2}, Source: "rdb.Del(ctx, \"lock:old\")", Suppressed: &report.Suppression{Kind: "external", Justification: "baseline .lockaudit-baseline.json"}},
		{Rule: "LA201", Severity: rules.Error, Message: "A promotable node lacks the native release command: replica 127.0.0.1:7002 (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command)); a replica can be promoted (REPLICAOF NO ONE or a failover tool); DELIFEQ needs Valkey 9.0+, no Redis version", Node: "127.0.0.1:7002"},
		{Rule: "LA208", Severity: rules.Warning, Message: "A node or a fact could not be read: connection: dial tcp 127.0.0.1:7003: connect: connection refused — unknown: every answer about this node", Node: "127.0.0.1:7003"},
	}
	r.Sort()
	r.Uses = []report.Use{
		{Command: rules.UseDELIFEQ, Sites: []report.Site{{Pos: report.Position{File: "orders/lock.go", Line: 88, Col: 9}, What: "DELIFEQ release"}}},
		{Command: rules.UseLua, Sites: []report.Site{{Pos: report.Position{File: "orders/lua.go", Line: 9, Col: 18}, What: "Lua compare-and-delete"}}},
	}
	r.Topology = "replication"
	r.Nodes = []report.Node{
		{Addr: "127.0.0.1:7001", Role: "primary", Promotable: report.PromotableYes, Server: "valkey", Version: "9.1.2", Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.No, SetIFEQ: report.Yes, Config: map[string]string{"appendonly": "yes", "appendfsync": "everysec", "min-replicas-to-write": "0"}, Errors: []string{}},
		{Addr: "127.0.0.1:7002", Role: "replica", Promotable: report.PromotableYes, Server: "valkey", Version: "8.1.1", Lua: report.Yes, DELIFEQ: report.No, DELEX: report.No, SetIFEQ: report.Yes, Config: map[string]string{}, Errors: []string{}, Primary: "127.0.0.1:7001", Notes: []string{"replica-priority 100"}},
		{Addr: "127.0.0.1:7003", Role: "unknown", Promotable: report.PromotableUnknown, Server: report.ServerUnknown, Config: map[string]string{}, Errors: []string{"connection: dial tcp 127.0.0.1:7003: connect: connection refused"}},
	}
	// The verdict is the real join's over these nodes: the 8.1 replica
	// makes the release unsafe, the unreachable node leaves the extend
	// and Lua unknown.
	r.Verdict = judge(r)
	r.Errors = []report.Error{
		{Where: "127.0.0.1:7003", Message: "dial tcp 127.0.0.1:7003: connection refused"},
		{Where: "example.com/orders/broken", Message: "broken/b.go:3:23: undefined: undefinedThing"},
		{Where: "example.com/orders/broken", Message: "broken/b.go:4:2: missing return"},
	}
	return r
}

// vetRun is the shape `lockaudit vet` produces: code findings only.
func vetRun() *report.Run {
	r := report.New("vet", "v0.0.0-test")
	r.Target = "valkey-9.0"
	r.Packages = []string{"./..."}
	r.Rules = []string{"LA101", "LA103"}
	r.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Message: "plain DEL releases lock key \"lock:{order}\"", Pos: &report.Position{File: "orders/lock.go", Line: 42, Col: 2}, Source: "rdb.Del(ctx, \"lock:{order}\")"},
		{Rule: "LA101", Severity: rules.Warning, Message: "Lua compare-and-delete: use DELIFEQ (Valkey 9.0+)", Pos: &report.Position{File: "orders/lua.go", Line: 9, Col: 18}, Source: "var release = redis.NewScript(`...`)"},
	}
	r.Sort()
	return r
}

func render(t *testing.T, r *report.Run, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := report.Render(&buf, r, format); err != nil {
		t.Fatalf("Render(%s): %v", format, err)
	}
	return buf.Bytes()
}

func TestTextGolden(t *testing.T) {
	goldenDoc(t, "full.txt", render(t, formatsRun(), "text"))
	goldenDoc(t, "vet.txt", render(t, vetRun(), "text"))
}

func TestJSONGolden(t *testing.T) {
	goldenDoc(t, "full.json", render(t, formatsRun(), "json"))
	goldenDoc(t, "vet.json", render(t, vetRun(), "json"))
}

func TestSARIFGolden(t *testing.T) {
	goldenDoc(t, "full.sarif", render(t, formatsRun(), "sarif"))
	goldenDoc(t, "vet.sarif", render(t, vetRun(), "sarif"))
}

// TestBuiltRunsValidate: the runs built here are runs lockaudit could
// write: each passes Validate, and its JSON decodes back as `render` reads
// it.
func TestBuiltRunsValidate(t *testing.T) {
	for name, r := range map[string]*report.Run{"formatsRun": formatsRun(), "vetRun": vetRun()} {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := report.DecodeRun(render(t, r, "json")); err != nil {
			t.Errorf("%s as JSON: %v", name, err)
		}
	}
}

func TestTextShowsCodeFindingsInVetForm(t *testing.T) {
	out := string(render(t, vetRun(), "text"))
	want := "orders/lock.go:42:2: LA103 plain DEL releases lock key \"lock:{order}\"\norders/lua.go:9:18: LA101 Lua compare-and-delete: use DELIFEQ (Valkey 9.0+)\n"
	if out != want {
		t.Errorf("vet text:\n%s\nwant:\n%s", out, want)
	}
	empty := report.New("vet", "x")
	if out := render(t, empty, "text"); len(out) != 0 {
		t.Errorf("a clean run prints nothing on stdout, got %q", out)
	}
}

func TestTextHidesSuppressedAndShowsEveryPart(t *testing.T) {
	out := string(render(t, formatsRun(), "text"))
	for _, no := range []string{"reaper", "lock:old", "legacy/old.go"} {
		if strings.Contains(out, no) {
			t.Errorf("text shows a suppressed finding (%q):\n%s", no, out)
		}
	}
	for _, want := range []string{
		"orders/lock.go:42:2: LA103 ",
		"The code relies on:\n  delifeq  orders/lock.go:88:9 (DELIFEQ release)\n",
		"Topology: replication (1 primary, 1 replica, 1 unknown). The code relies on: delifeq, lua.\n",
		"| 127.0.0.1:7002 | replica | yes        | Valkey 8.1.1 |",
		"| 127.0.0.1:7003 | unknown | unknown    | unreachable  |",
		"Notes:\n  127.0.0.1:7002: replica-priority 100\n",
		"  LA201 error   127.0.0.1:7002  A promotable node lacks the native release command: replica 127.0.0.1:7002",
		"Native release (DELIFEQ): UNSAFE (your code relies on this)",
		"    - the code releases with DELIFEQ (orders/lock.go:88) but replica 127.0.0.1:7002 (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command)); upgrade 127.0.0.1:7002 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)\n",
		"    - the code releases with DELIFEQ (orders/lock.go:88) but DELIFEQ is unknown on 127.0.0.1:7003 (not reachable: dial tcp 127.0.0.1:7003: connect: connection refused); restore what LA208 reports for 127.0.0.1:7003 and run again (unknown is not safe)\n",
		"Native extend (SET IFEQ): UNKNOWN\n",
		"Exit status 1: the run is incomplete (see the errors).",
		"# example.com/orders/broken\nbroken/b.go:3:23: undefined: undefinedThing\nbroken/b.go:4:2: missing return\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		r    *report.Run
		want string
	}{
		{report.New("vet", ""), "no findings"},
		{vetRun(), "2 findings (1 error, 1 warning)"},
		{formatsRun(), "4 findings (2 errors, 2 warnings), 2 suppressed; incomplete run: 3 errors (first: 127.0.0.1:7003: dial tcp 127.0.0.1:7003: connection refused)"},
		{&report.Run{Errors: []report.Error{{Where: "./x/...", Message: "pattern matched no packages\nsecond line"}}}, "no findings; incomplete run: 1 error (./x/...: pattern matched no packages)"},
		{&report.Run{AnalyzedPackages: []string{"m/d"}, UnanalyzedPackages: []string{"m/a", "m/b", "m/c"}, Errors: []report.Error{{Where: "m/a", Message: "a.go:6:2: m@v1: 403 Forbidden"}}}, "no findings; incomplete run: analysed 1 of 4 packages, 1 error (m/a: a.go:6:2: m@v1: 403 Forbidden)"},
	} {
		if got := report.Summary(tc.r); got != tc.want {
			t.Errorf("Summary = %q, want %q", got, tc.want)
		}
	}
}

func TestJSONRoundTrips(t *testing.T) {
	r := formatsRun()
	data := render(t, r, "json")
	var back report.Run
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again := render(t, &back, "json")
	if !bytes.Equal(data, again) {
		t.Errorf("JSON does not round-trip:\n%s\n---\n%s", data, again)
	}
	if !bytes.Contains(render(t, report.New("vet", "x"), "json"), []byte(`"findings": []`)) {
		t.Errorf("an empty run must write findings as [], not null")
	}
}

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	withoutRules := vetRun()
	withoutRules.Rules = nil // an older JSON re-rendered: rules come from the findings
	unknownRule := vetRun()
	unknownRule.Findings[0].Rule = "LA999"
	for name, r := range map[string]*report.Run{
		"full": formatsRun(), "vet": vetRun(), "empty": report.New("vet", ""),
		"without rules": withoutRules, "unknown rule": unknownRule,
	} {
		if err := sarifcheck.Validate(render(t, r, "sarif")); err != nil {
			t.Errorf("%s: SARIF does not validate against the 2.1.0 schema:\n%v", name, err)
		}
	}
	// The validator must be able to fail.
	if err := sarifcheck.Validate([]byte(`{"version": "2.1.0", "runs": [{"results": []}]}`)); err == nil {
		t.Errorf("schema validation accepted a run without a tool")
	}
}

func TestSARIFContent(t *testing.T) {
	var log struct {
		Schema string `json:"$schema"`
		Runs   []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						Name             string `json:"name"`
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						Help             struct{ Text, Markdown string }
						DefaultConfig    struct{ Level string } `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Message struct{ Text string }
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					Physical *struct {
						Artifact struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
					Logical []struct{ Name string } `json:"logicalLocations"`
				} `json:"locations"`
				Suppressions []struct{ Kind, Justification string } `json:"suppressions"`
				Properties   struct{ Node string }                  `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, formatsRun(), "sarif"), &log); err != nil {
		t.Fatal(err)
	}
	if log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("want $schema and one run: %+v", log)
	}
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		cat := rules.MustGet(r.ID)
		if r.Name != cat.Name || r.ShortDescription.Text != cat.Title || r.FullDescription.Text != cat.Summary() || r.Help.Text != cat.Doc() || r.Help.Markdown != cat.Markdown() || r.DefaultConfig.Level != cat.Severity.SARIFLevel() {
			t.Errorf("rule %s does not carry the catalog's metadata: %+v", r.ID, r)
		}
	}
	if strings.Join(ids, ",") != "LA101,LA103,LA104,LA201,LA208" {
		t.Errorf("rules = %v, want the rules that ran, and those of the findings", ids)
	}
	if len(run.Results) != 6 {
		t.Fatalf("want 6 results (suppressed ones included), got %d", len(run.Results))
	}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing at %s", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		if len(res.Locations) != 1 {
			t.Errorf("result %s: want one location", res.RuleID)
		}
	}
	first := run.Results[0] // legacy/old.go sorts first
	if loc := first.Locations[0].Physical; loc == nil || loc.Artifact.URI != "legacy/old.go" || loc.Artifact.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 7 || loc.Region.StartColumn != 2 {
		t.Errorf("first result location: %+v", first.Locations[0])
	}
	if len(first.Suppressions) != 1 || first.Suppressions[0].Kind != "external" || first.Suppressions[0].Justification == "" {
		t.Errorf("baseline suppression: %+v", first.Suppressions)
	}
	var inSource, node int
	for _, res := range run.Results {
		if len(res.Suppressions) == 1 && res.Suppressions[0].Kind == "inSource" && res.Suppressions[0].Justification == "the key is deleted by the reaper" {
			inSource++
		}
		if res.RuleID == "LA201" {
			node++
			if res.Locations[0].Physical != nil || len(res.Locations[0].Logical) != 1 || res.Locations[0].Logical[0].Name != "127.0.0.1:7002" || res.Properties.Node != "127.0.0.1:7002" || !strings.HasPrefix(res.Message.Text, "node 127.0.0.1:7002: ") || res.Level != "error" {
				t.Errorf("node result: %+v", res)
			}
		}
	}
	if inSource != 1 || node != 1 {
		t.Errorf("want one inSource suppression and one node result, got %d and %d", inSource, node)
	}
	inv := run.Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) != 3 || !strings.Contains(inv.Notifications[1].Message.Text, "example.com/orders/broken: broken/b.go:3:23: undefined") {
		t.Errorf("invocation: %+v", inv)
	}
}

func TestSARIFMultitool(t *testing.T) {
	for name, r := range map[string]*report.Run{"full": formatsRun(), "vet": vetRun(), "empty": report.New("vet", "v1.0.0")} {
		t.Run(name, func(t *testing.T) { sarifcheck.Multitool(t, render(t, r, "sarif")) })
	}
}

// TestSARIFURIsAreFilePaths: a finding's file becomes a URI that means
// that file and nothing else — never a scheme (javascript:, data:, http:)
// nor a host — whatever the file is called; the path reads back from it.
func TestSARIFURIsAreFilePaths(t *testing.T) {
	files := []string{
		"javascript:alert(1)//x.go", "data:text/html,<b>x</b>.go", "http://evil.example/x.go", "//evil.example/x.go",
		"C:/x.go", "a b#c?d%2e.go", "dir/ünï.go", "orders/lock.go", "/abs/path/x.go", "///abs.go",
	}
	r := report.New("vet", "v0.0.0-test")
	for i, f := range files {
		r.Findings = append(r.Findings, report.Finding{Rule: "LA103", Severity: rules.Error, Message: "m", Pos: &report.Position{File: f, Line: i + 1, Col: 1}, Source: "x"})
	}
	out := render(t, r, "sarif")
	if err := sarifcheck.Validate(out); err != nil {
		t.Fatalf("SARIF does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					Physical struct {
						Artifact struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	for _, res := range log.Runs[0].Results {
		loc := res.Locations[0].Physical
		file := files[loc.Region.StartLine-1]
		u, err := url.Parse(loc.Artifact.URI)
		if err != nil {
			t.Errorf("%q: uri %q does not parse: %v", file, loc.Artifact.URI, err)
			continue
		}
		abs := strings.HasPrefix(file, "/")
		switch {
		case u.Host != "" || u.User != nil:
			t.Errorf("%q: uri %q names a host", file, loc.Artifact.URI)
		case abs && (u.Scheme != "file" || loc.Artifact.URIBaseID != ""):
			t.Errorf("%q: an absolute path is a file: URI without a base, got %q (base %q)", file, loc.Artifact.URI, loc.Artifact.URIBaseID)
		case !abs && (u.Scheme != "" || loc.Artifact.URIBaseID != "%SRCROOT%"):
			t.Errorf("%q: uri %q (base %q) is not a path relative to %%SRCROOT%%", file, loc.Artifact.URI, loc.Artifact.URIBaseID)
		}
		want := file
		if abs {
			want = path.Clean(file)
		}
		if got := strings.TrimPrefix(u.Path, "./"); got != want {
			t.Errorf("%q: uri %q reads back as %q", file, loc.Artifact.URI, got)
		}
	}
	if !bytes.Contains(out, []byte(`"uri": "orders/lock.go"`)) {
		t.Errorf("a plain path is not its own URI")
	}
}

// TestSARIFSnippetCut: the snippet of a generated file's 10 MB line is
// its first report.SourceMax bytes and an ellipsis; the fingerprint still
// hashes the whole line.
func TestSARIFSnippetCut(t *testing.T) {
	long := "x := \"" + strings.Repeat("é", 5<<20) + "\""
	r := vetRun()
	r.Findings[0].Source = long
	out := render(t, r, "sarif")
	if len(out) > 64<<10 {
		t.Fatalf("SARIF of a 10 MB source line is %d bytes", len(out))
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Physical struct {
						Context struct{ Snippet struct{ Text string } } `json:"contextRegion"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Fingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	var snippet, fp string
	for _, res := range log.Runs[0].Results {
		if res.RuleID == "LA103" {
			snippet, fp = res.Locations[0].Physical.Context.Snippet.Text, res.Fingerprints["lockaudit/v1"]
		}
	}
	if !strings.HasSuffix(snippet, "…") || len(snippet) > report.SourceMax+len("…") || !strings.HasPrefix(long, strings.TrimSuffix(snippet, "…")) || !utf8.ValidString(snippet) {
		t.Errorf("snippet of %d bytes: %.80q…", len(snippet), snippet)
	}
	r.Findings[0].Source = long[:len(long)-1]
	var again struct {
		Runs []struct {
			Results []struct {
				Fingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	json.Unmarshal(render(t, r, "sarif"), &again)
	for _, res := range again.Runs[0].Results {
		if res.Fingerprints["lockaudit/v1"] == fp {
			t.Errorf("the fingerprint does not depend on the end of the line")
		}
	}
	// The other reports show the same cut line; JSON keeps the run's.
	for _, format := range []string{"text", "markdown", "html"} {
		if out := render(t, r, format); len(out) > 256<<10 {
			t.Errorf("%s of a 10 MB source line is %d bytes", format, len(out))
		}
	}
}
