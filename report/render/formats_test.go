package render_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
	"github.com/lockaudit/lockaudit/rules"
)

func rendered(t *testing.T, r *report.Run, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Render(&buf, r, format); err != nil {
		t.Fatalf("Render(%s): %v", format, err)
	}
	return buf.Bytes()
}

func TestTextGolden(t *testing.T) {
	fixture.Golden(t, "full.txt", rendered(t, fixture.Full(), "text"))
	fixture.Golden(t, "vet.txt", rendered(t, fixture.Vet(), "text"))
}

func TestSARIFGolden(t *testing.T) {
	fixture.Golden(t, "full.sarif", rendered(t, fixture.Full(), "sarif"))
	fixture.Golden(t, "vet.sarif", rendered(t, fixture.Vet(), "sarif"))
}

func TestTextShowsCodeFindingsInVetForm(t *testing.T) {
	out := string(rendered(t, fixture.Vet(), "text"))
	want := "orders/lock.go:42:2: LA103 plain DEL releases lock key \"lock:{order}\"\norders/lua.go:9:18: LA101 Lua compare-and-delete: use DELIFEQ (Valkey 9.0+)\n"
	if out != want {
		t.Errorf("vet text:\n%s\nwant:\n%s", out, want)
	}
	empty := report.New("vet", "x")
	if out := rendered(t, empty, "text"); len(out) != 0 {
		t.Errorf("a clean run prints nothing on stdout, got %q", out)
	}
}

func TestTextHidesSuppressedAndShowsEveryPart(t *testing.T) {
	out := string(rendered(t, fixture.Full(), "text"))
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

func TestSARIFValidatesAgainstSchema(t *testing.T) {
	withoutRules := fixture.Vet()
	withoutRules.Rules = nil // an older JSON re-rendered: rules come from the findings
	unknownRule := fixture.Vet()
	unknownRule.Findings[0].Rule = "LA999"
	for name, r := range map[string]*report.Run{
		"full": fixture.Full(), "vet": fixture.Vet(), "empty": report.New("vet", ""),
		"without rules": withoutRules, "unknown rule": unknownRule,
	} {
		if err := sarifcheck.Validate(rendered(t, r, "sarif")); err != nil {
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
	if err := json.Unmarshal(rendered(t, fixture.Full(), "sarif"), &log); err != nil {
		t.Fatal(err)
	}
	if log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("want $schema and one run: %+v", log)
	}
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		cat := rules.MustGet(rules.ID(r.ID))
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
	for name, r := range map[string]*report.Run{"full": fixture.Full(), "vet": fixture.Vet(), "empty": report.New("vet", "v1.0.0")} {
		t.Run(name, func(t *testing.T) { sarifcheck.Multitool(t, rendered(t, r, "sarif")) })
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
	out := rendered(t, r, "sarif")
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
	r := fixture.Vet()
	r.Findings[0].Source = long
	out := rendered(t, r, "sarif")
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
	json.Unmarshal(rendered(t, r, "sarif"), &again)
	for _, res := range again.Runs[0].Results {
		if res.Fingerprints["lockaudit/v1"] == fp {
			t.Errorf("the fingerprint does not depend on the end of the line")
		}
	}
	// The other reports show the same cut line; JSON keeps the run's.
	for _, format := range []string{"text", "markdown", "html"} {
		if out := rendered(t, r, format); len(out) > 256<<10 {
			t.Errorf("%s of a 10 MB source line is %d bytes", format, len(out))
		}
	}
}

// TestSARIFPositionsAlwaysValid: a run holding positions SARIF cannot
// express (a hand-edited run rendered in-process; render refuses such a
// file) still gives a schema-valid log: the region is left out, not
// written with startLine -1.
func TestSARIFPositionsAlwaysValid(t *testing.T) {
	for _, pos := range []report.Position{{File: "a.go", Line: -1, Col: 3}, {File: "a.go", Line: 0, Col: 0}, {File: "a.go", Line: 4, Col: -7}} {
		r := fixture.Vet()
		r.Findings[0].Pos = &pos
		out := rendered(t, r, "sarif")
		if err := sarifcheck.Validate(out); err != nil {
			t.Errorf("position %+v: %v", pos, err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						Physical struct {
							Region *struct {
								StartLine   int `json:"startLine"`
								StartColumn int `json:"startColumn"`
							} `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil {
			t.Fatal(err)
		}
		reg := log.Runs[0].Results[0].Locations[0].Physical.Region
		switch {
		case pos.Line < 1 && reg != nil:
			t.Errorf("position %+v: region %+v written", pos, reg)
		case pos.Line >= 1 && (reg == nil || reg.StartLine != pos.Line || reg.StartColumn != 0):
			t.Errorf("position %+v: region %+v, want line %d without a column", pos, reg, pos.Line)
		}
	}
}

// TestRendersBothSchemas: a saved run of either schema version (the same
// real audit, written by the lockaudit of each) renders in every format.
func TestRendersBothSchemas(t *testing.T) {
	for _, name := range []string{"v1/audit-example", "audit-example"} {
		r := fixture.Load(t, name)
		for _, format := range render.Formats() {
			var buf bytes.Buffer
			if err := render.Render(&buf, r, format); err != nil {
				t.Errorf("%s, %s: %v", name, format, err)
			}
		}
	}
}

// TestScanDatabasesInEveryFormat: the scan's per-database line (keys, lock
// keys, findings, an incomplete database's note) is in the text,
// Markdown and HTML reports.
func TestScanDatabasesInEveryFormat(t *testing.T) {
	r := report.New("scan", "v0.0.0-test")
	r.Scan = &report.Scan{Patterns: []string{"^lock:"}, Count: 100, Shards: []report.ScanShard{{
		Primary: "127.0.0.1:7001", ReadFrom: "127.0.0.1:7002", Role: "replica", Keys: 301, LockKeys: 7, Findings: 2, Note: "db3 not read to the end",
		Databases: []report.ScanDB{{DB: 0, Keys: 300, LockKeys: 6, Findings: 2, Complete: true}, {DB: 3, Keys: 1, LockKeys: 1, Note: "the deadline passed"}},
	}}}
	want := "db0: 300 keys, 6 lock keys, 2 findings; db3: 1 key, 1 lock key, 0 findings (INCOMPLETE: the deadline passed)"
	for _, format := range []string{"text", "markdown", "html"} {
		out := string(rendered(t, r, format))
		if format == "markdown" {
			out = strings.ReplaceAll(out, `\`, "")
		}
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", format, want, out)
		}
	}
}
