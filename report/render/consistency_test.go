package render_test

import (
	"encoding/json"
	"fmt"
	"html"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/workflowcmd"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/report/reportcheck"
)

// TestFormatsAgree renders the same runs in every registered format and
// checks that each carries the same findings (rule and location, code or
// node) and the same verdict. Formats this test knows are read in their own
// structure (JSON, SARIF) or their own layout (text, Markdown, HTML); any
// other format that gets registered is at least searched for every rule
// and location, so a new renderer cannot silently drop findings.
func TestFormatsAgree(t *testing.T) {
	runs := map[string]*report.Run{"formatsRun": fixture.Full(), "vetRun": fixture.Vet()}
	for _, name := range fixture.Names {
		runs[name] = fixture.Load(t, name)
	}
	for _, want := range []string{"text", "json", "sarif", "markdown", "html"} {
		if !contains(render.Formats(), want) {
			t.Errorf("format %s is not registered", want)
		}
	}
	for name, r := range runs {
		for _, format := range render.Formats() {
			t.Run(name+"/"+format, func(t *testing.T) {
				out := string(rendered(t, r, format))
				check, ok := formatCheckers[format]
				if !ok {
					check = checkAnyFormat
				}
				for _, problem := range check(r, out) {
					t.Error(problem)
				}
			})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type checker func(r *report.Run, out string) []string

var formatCheckers = map[string]checker{
	"github":   checkGitHub,
	"json":     checkJSON,
	"sarif":    checkSARIF,
	"text":     checkText,
	"markdown": checkMarkdown,
	"html":     checkHTML,
}

func where(f report.Finding) string {
	if f.Pos != nil {
		return f.Pos.String()
	}
	return f.Node
}

func checkJSON(r *report.Run, out string) []string {
	var back report.Run
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	want := &report.Run{Findings: append([]report.Finding(nil), r.Findings...)}
	want.Sort()
	got := &report.Run{Findings: back.Findings}
	got.Sort()
	// Every finding carries its ID and its risk, derived when rendered.
	for i := range got.Findings {
		f := &got.Findings[i]
		if f.ID == "" || f.Risk == nil {
			problems = append(problems, fmt.Sprintf("finding %d (%s): no ID or no risk", i, f.Rule))
		}
		if i < len(want.Findings) && want.Findings[i].ID == "" {
			f.ID = ""
		}
		f.Risk, f.Owner, f.Effort = nil, "", ""
	}
	if len(want.Findings) != len(got.Findings) {
		problems = append(problems, fmt.Sprintf("%d findings, want %d", len(got.Findings), len(want.Findings)))
	} else {
		for i := range want.Findings {
			if !reflect.DeepEqual(want.Findings[i], got.Findings[i]) {
				problems = append(problems, fmt.Sprintf("finding %d: %+v, want %+v", i, got.Findings[i], want.Findings[i]))
			}
		}
	}
	if !reflect.DeepEqual(r.Verdict, back.Verdict) {
		problems = append(problems, fmt.Sprintf("verdict %+v, want %+v", back.Verdict, r.Verdict))
	}
	return problems
}

func checkSARIF(r *report.Run, out string) []string {
	var log struct {
		Runs []struct {
			Properties struct {
				Verdict *report.Verdict `json:"verdict"`
			} `json:"properties"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					Physical *struct {
						Artifact struct{ URI string } `json:"artifactLocation"`
						Region   struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				Suppressions []json.RawMessage     `json:"suppressions"`
				Properties   struct{ Node string } `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		return []string{fmt.Sprintf("not one SARIF run: %v", err)}
	}
	got := map[string]int{}
	for _, res := range log.Runs[0].Results {
		loc := res.Properties.Node
		if len(res.Locations) > 0 && res.Locations[0].Physical != nil {
			p := res.Locations[0].Physical
			loc = fmt.Sprintf("%s:%d:%d", p.Artifact.URI, p.Region.StartLine, p.Region.StartColumn)
		}
		got[fmt.Sprintf("%s %s suppressed=%t", res.RuleID, loc, len(res.Suppressions) > 0)]++
	}
	want := map[string]int{}
	for _, f := range r.Findings {
		want[fmt.Sprintf("%s %s suppressed=%t", f.Rule, where(f), f.Suppressed != nil)]++
	}
	var problems []string
	if !reflect.DeepEqual(got, want) {
		problems = append(problems, fmt.Sprintf("results %v, want %v", got, want))
	}
	if !reflect.DeepEqual(log.Runs[0].Properties.Verdict, r.Verdict) {
		problems = append(problems, fmt.Sprintf("verdict %+v, want %+v", log.Runs[0].Properties.Verdict, r.Verdict))
	}
	return problems
}

// checkText: text shows active findings only, code findings in go vet's
// form and node findings as "node ADDR: RULE".
func checkText(r *report.Run, out string) []string {
	var problems []string
	for _, f := range r.Active() {
		// Node findings use the probe's layout (rule, severity, node); an
		// info finding several nodes share is one line naming them all.
		line := fmt.Sprintf("  %s %-7s %s  %s", f.Rule, f.Severity, f.Node, f.Message)
		if f.Pos != nil {
			line = f.Pos.String() + ": " + string(f.Rule) + " " + f.Message
		}
		found := strings.Contains(out, line+"\n")
		if !found && f.Pos == nil && f.Severity.String() == "info" {
			head := fmt.Sprintf("  %s %-7s ", f.Rule, f.Severity)
			for _, l := range strings.Split(out, "\n") {
				nodes, msg, ok := strings.Cut(strings.TrimPrefix(l, head), "  ")
				if strings.HasPrefix(l, head) && ok && msg == f.Message && contains(strings.Split(nodes, ", "), f.Node) {
					found = true
				}
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("lacks %q", line))
		}
	}
	return append(problems, verdictShown(r, "text", out)...)
}

// checkMarkdown: findings are grouped under a "### severity · RULE"
// heading (suppressed ones listed with their rule), each with its location
// as code and its message.
func checkMarkdown(r *report.Run, out string) []string {
	blocks := strings.Split(out, "\n### ")
	unescape := regexp.MustCompile(`\\(.)`)
	var problems []string
	for _, f := range r.Findings {
		found := false
		for _, b := range blocks {
			b = unescape.ReplaceAllString(b, "$1")
			if f.Suppressed != nil {
				if strings.Contains(b, "- `"+string(f.Rule)+"-") && strings.Contains(b, "` `"+where(f)+"`") && strings.Contains(b, f.Message) && strings.Contains(b, f.Suppressed.Justification) {
					found = true
				}
			} else if strings.Contains(b, " · "+string(f.Rule)) && regexp.MustCompile("(?m)^- `"+string(f.Rule)+`-[0-9a-f]{4}(\.\d+)?`+"` \\*\\*[a-z]+\\*\\* `"+regexp.QuoteMeta(where(f))+"`( \\([^)]*\\))?: "+regexp.QuoteMeta(f.Message)).MatchString(b) {
				found = true
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("lacks %s at %s (%q)", f.Rule, where(f), f.Message))
		}
	}
	return append(problems, verdictShown(r, "markdown", out)...)
}

// checkHTML: each active finding is in the group of its rule, with its
// location and message; each suppressed one is listed with its rule and
// justification.
func checkHTML(r *report.Run, out string) []string {
	type group struct {
		head     string
		findings []string
	}
	var groups []group
	for _, g := range strings.Split(out, `<div class="rulegroup">`)[1:] {
		parts := regexp.MustCompile(`<div class="finding"[^>]*>`).Split(html.UnescapeString(g), -1)
		groups = append(groups, group{parts[0], parts[1:]})
	}
	var problems []string
	for _, f := range r.Findings {
		rule := regexp.MustCompile(`\b` + string(f.Rule) + `\b`)
		found := false
		for _, g := range groups {
			for _, b := range g.findings {
				if !strings.Contains(b, "<code>"+where(f)+"</code>") || !strings.Contains(b, `<div class="msg">`+f.Message+"</div>") {
					continue
				}
				if f.Suppressed == nil && rule.MatchString(g.head) && !strings.Contains(b, "Suppressed (") ||
					f.Suppressed != nil && rule.MatchString(b) && strings.Contains(b, f.Suppressed.Justification) {
					found = true
				}
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("lacks %s at %s (%q), suppressed=%t", f.Rule, where(f), f.Message, f.Suppressed != nil))
		}
	}
	return append(problems, verdictShown(r, "html", out)...)
}

// verdictShown checks that the report's status word (reportcheck's
// banner, worked out from the exit status and verdict, not by the renderer)
// and its headline verdict — each value in its own place in the layout,
// exactly once — are the run's: a wrong verdict cannot pass because the
// right word appears in some explanation nearby, or "safe" inside "unsafe".
func verdictShown(r *report.Run, format, out string) []string {
	var problems []string
	if p := reportcheck.CheckBanner(format, []byte(out), r); p != "" {
		problems = append(problems, p)
	}
	if r.Verdict == nil {
		return problems
	}
	if p := reportcheck.Check(format, []byte(out), reportcheck.Of(r.Verdict)); p != "" {
		problems = append(problems, p)
	}
	return problems
}

// checkAnyFormat is for formats this test does not know: every finding's
// rule and location must appear somewhere.
// checkGitHub: every active finding is an annotation (up to the cap per
// level) that the runner parses back to its file, line and message.
func checkGitHub(r *report.Run, out string) []string {
	var got []string
	for _, c := range workflowcmd.All(out) {
		got = append(got, c.Props["file"]+":"+c.Props["line"]+":"+c.Props["col"]+" "+strings.Fields(c.Props["title"])[0]+" "+c.Data)
	}
	var problems []string
	perLevel := map[string]int{}
	for _, f := range r.Active() {
		if perLevel[f.Severity.String()]++; perLevel[f.Severity.String()] > render.MaxAnnotations {
			continue
		}
		want := ":: " + string(f.Rule) + " " + report.Escape(f.Node) + ": " + report.Escape(f.Message)
		if f.Pos != nil {
			want = fmt.Sprintf("%s:%d:%d %s %s", report.Escape(f.Pos.File), f.Pos.Line, f.Pos.Col, f.Rule, report.Escape(f.Message))
		}
		if !contains(got, want) {
			problems = append(problems, fmt.Sprintf("lacks the annotation %q", want))
		}
	}
	return problems
}

func checkAnyFormat(r *report.Run, out string) []string {
	var problems []string
	for _, f := range r.Findings {
		if !strings.Contains(out, string(f.Rule)) || !strings.Contains(out, where(f)) {
			problems = append(problems, fmt.Sprintf("lacks %s at %s", f.Rule, where(f)))
		}
	}
	return problems
}
