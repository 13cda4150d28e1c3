package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/workflowcmd"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// TestGitHubAnnotations: the github format is one workflow command per
// active finding that the runner parses back to exactly the file, line,
// column, title and message — also when they hold the characters that
// end a command, split its properties or start a new line (a hostile
// file name or message cannot inject "::stop-commands::" or a second
// annotation) —, most severe first, errors as ::error, warnings as
// ::warning, info as ::notice, node findings naming their node.
func TestGitHubAnnotations(t *testing.T) {
	r := report.New("audit", "test")
	hostileFile := "svc/a,b:c%0A%3A.go"
	hostileMsg := "DEL of \"lock:x\" 100% :: then\n::stop-commands::tok\r\n::error file=x::injected %25 %0A"
	r.Findings = []report.Finding{
		{Rule: "LA101", Severity: rules.Warning, Pos: &report.Position{File: "svc/lua.go", Line: 9, Col: 18}, Message: "Lua lock script"},
		{Rule: "LA205", Severity: rules.Info, Node: "10.0.0.1:6379", Message: "Locks do not survive a restart: appendonly no"},
		{Rule: "LA103", Severity: rules.Error, Pos: &report.Position{File: hostileFile, Line: 42, Col: 2}, Message: hostileMsg},
		{Rule: "LA104", Severity: rules.Error, Pos: &report.Position{File: "svc/ok.go", Line: 1, Col: 1}, Message: "suppressed", Suppressed: &report.Suppression{Kind: "inSource", Justification: "why"}},
	}
	var buf bytes.Buffer
	if err := render.Render(&buf, r, "github"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []workflowcmd.Command{
		{Name: "error", Props: map[string]string{"file": hostileFile, "line": "42", "col": "2", "title": "LA103 plain-del-release"}, Data: report.Escape(hostileMsg)},
		{Name: "warning", Props: map[string]string{"file": "svc/lua.go", "line": "9", "col": "18", "title": "LA101 lua-lock-script"}, Data: "Lua lock script"},
		{Name: "notice", Props: map[string]string{"title": "LA205 " + mustRule(t, "LA205").Name}, Data: "10.0.0.1:6379: Locks do not survive a restart: appendonly no"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d (one per active finding):\n%s", len(lines), len(want), buf.String())
	}
	for i, l := range lines {
		got, ok := workflowcmd.Parse(l)
		if !ok {
			t.Errorf("line %d is not a workflow command: %q", i+1, l)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("line %d parses as\n %+v\nwant\n %+v\n(line %q)", i+1, got, want[i], l)
		}
	}
	if strings.Contains(buf.String(), "\r") || strings.Count(buf.String(), "\n") != len(want) {
		t.Errorf("a raw line break is in the output: %q", buf.String())
	}
}

func mustRule(t *testing.T, id string) rules.Rule {
	r, ok := rules.Lookup(id)
	if !ok {
		t.Fatalf("no rule %s", id)
	}
	return r
}

// TestGitHubAnnotationsCapped: at most MaxAnnotations of each level are
// written (GitHub drops the rest of a step's silently), errors first, and
// a last plain line counts what was left out.
func TestGitHubAnnotationsCapped(t *testing.T) {
	r := report.New("vet", "test")
	for i := range 25 {
		r.Findings = append(r.Findings,
			report.Finding{Rule: "LA101", Severity: rules.Warning, Pos: &report.Position{File: "w.go", Line: i + 1, Col: 1}, Message: "w"},
			report.Finding{Rule: "LA103", Severity: rules.Error, Pos: &report.Position{File: "e.go", Line: i + 1, Col: 1}, Message: "e"})
	}
	r.Sort()
	var buf bytes.Buffer
	if err := render.Render(&buf, r, "github"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2*render.MaxAnnotations+1 {
		t.Fatalf("%d lines, want %d annotations and a count:\n%s", len(lines), 2*render.MaxAnnotations, buf.String())
	}
	for i, l := range lines[:2*render.MaxAnnotations] {
		wantLevel := "::error "
		if i >= render.MaxAnnotations {
			wantLevel = "::warning "
		}
		if !strings.HasPrefix(l, wantLevel) {
			t.Errorf("line %d: %q, want %s (most severe first)", i+1, l, wantLevel)
		}
	}
	if last := lines[len(lines)-1]; last != "lockaudit: 30 more findings not annotated (GitHub shows at most 10 of each level in a step): see the report above or the SARIF" {
		t.Errorf("last line %q", last)
	}
}

// TestPathPrefix: -path-prefix puts the module's folder in front of every
// source path, in every format (SARIF uris and annotations then point at
// the repository's files), the verdict's sites included, so the saved
// JSON renders again unchanged; a prefix that leaves the repository is
// refused.
func TestPathPrefix(t *testing.T) {
	r := fixture.Load(t, "audit-example")
	for _, format := range render.Formats() {
		var plain, prefixed bytes.Buffer
		if err := render.RenderWith(&plain, r, format, render.Options{}); err != nil {
			t.Fatal(err)
		}
		if err := render.RenderWith(&prefixed, r, format, render.Options{PathPrefix: "services/orders"}); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if !strings.Contains(prefixed.String(), "services/orders/billing/billing.go") {
			t.Errorf("%s: no prefixed path", format)
		}
		if format == "json" {
			again, err := report.DecodeRun(prefixed.Bytes())
			if err != nil {
				t.Fatalf("the prefixed JSON run does not decode: %v", err)
			}
			var re bytes.Buffer
			render.Render(&re, again, "json")
			if !bytes.Equal(re.Bytes(), prefixed.Bytes()) {
				t.Error("the prefixed JSON run renders differently again")
			}
		}
		if format == "sarif" {
			var doc struct {
				Runs []struct {
					Results []struct {
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct{ URI string } `json:"artifactLocation"`
							} `json:"physicalLocation"`
						} `json:"locations"`
					} `json:"results"`
				} `json:"runs"`
			}
			json.Unmarshal(prefixed.Bytes(), &doc)
			n := 0
			for _, res := range doc.Runs[0].Results {
				for _, l := range res.Locations {
					if u := l.PhysicalLocation.ArtifactLocation.URI; u != "" {
						n++
						if !strings.HasPrefix(u, "services/orders/") {
							t.Errorf("SARIF uri %q lacks the prefix", u)
						}
					}
				}
			}
			if n == 0 {
				t.Error("no SARIF uri checked")
			}
		}
	}
	if !strings.Contains(r.Findings[0].Pos.File, "/") && strings.HasPrefix(r.Findings[0].Pos.File, "services") {
		t.Error("rendering changed the run")
	}
	for in, want := range map[string]string{".": "", "": "", "services/orders/": "services/orders", "./a/../b": "b"} {
		if got, err := report.CleanPathPrefix(in); err != nil || got != want {
			t.Errorf("CleanPathPrefix(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/abs", "..", "../up", "a/../../up"} {
		if _, err := report.CleanPathPrefix(bad); err == nil {
			t.Errorf("CleanPathPrefix(%q) accepted", bad)
		}
	}
}

// TestGitHubComparisonNewOnly: `diff -format github` annotates what the
// change brought, the new findings, and neither the unchanged nor the fixed.
func TestGitHubComparisonNewOnly(t *testing.T) {
	pos := func(line int) *report.Position { return &report.Position{File: "svc/a.go", Line: line, Col: 2} }
	old := report.New("vet", "test")
	old.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Pos: pos(10), Message: "kept"},
		{Rule: "LA101", Severity: rules.Warning, Pos: pos(20), Message: "fixed"},
	}
	cur := report.New("vet", "test")
	cur.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Pos: pos(10), Message: "kept"},
		{Rule: "LA104", Severity: rules.Error, Pos: pos(30), Message: "brought"},
	}
	var buf bytes.Buffer
	if err := render.RenderComparison(&buf, report.Compare(old, cur), report.Tool{Name: "lockaudit", Version: "test"}, "github"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines, want 1 (the new finding):\n%s", len(lines), buf.String())
	}
	got, ok := workflowcmd.Parse(lines[0])
	if !ok || got.Name != "error" || got.Props["line"] != "30" || got.Data != "brought" {
		t.Errorf("annotation %+v (line %q), want the new LA104 at line 30", got, lines[0])
	}
}
