package report_test

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func codeFinding(rule, file string, line int, src string) report.Finding {
	return report.Finding{Rule: rule, Severity: rules.Error, Message: rule + " here", Pos: &report.Position{File: file, Line: line, Col: 1}, Source: src}
}

func changes(c *report.Comparison) string {
	var out []string
	for _, f := range c.Findings {
		out = append(out, f.Change+":"+f.Finding.Rule+"@"+f.Finding.Where())
	}
	return strings.Join(out, " ")
}

// Code findings are matched by rule, file and source line, not by line
// number; each old finding absorbs one new one.
func TestCompareMatchesByLine(t *testing.T) {
	old := report.New("vet", "x")
	old.Packages = []string{"./..."}
	old.Findings = []report.Finding{
		codeFinding("LA103", "a.go", 10, "rdb.Del(ctx, key)"),
		codeFinding("LA104", "a.go", 20, "rdb.SetIFEQ(ctx, k, t, t, 0)"),
	}
	cur := report.New("vet", "x")
	cur.Packages = []string{"./..."}
	cur.Findings = []report.Finding{
		codeFinding("LA103", "a.go", 14, "  rdb.Del(ctx,   key)"), // moved and re-indented
		codeFinding("LA103", "a.go", 30, "rdb.Del(ctx, key)"),     // a second such line
	}
	c := report.Compare(old, cur)
	if got, want := changes(c), "new:LA103@a.go:30 fixed:LA104@a.go:20 unchanged:LA103@a.go:14"; got != want {
		t.Errorf("changes %q, want %q", got, want)
	}
	if c.DiffExit() != report.ExitFindings {
		t.Errorf("a new error finding: diff exit %d, want 3", c.DiffExit())
	}
	// Suppressed since: not fixed.
	cur.Findings[0].Suppressed = &report.Suppression{Kind: "inSource", Justification: "j"}
	cur.Findings = cur.Findings[:1]
	old.Findings = old.Findings[:1]
	if got := changes(report.Compare(old, cur)); got != "suppressed:LA103@a.go:10" {
		t.Errorf("a finding suppressed since: %q", got)
	}
}

// A half one run did not look at is not compared: a probe run after a vet
// run has not fixed the code's findings.
func TestCompareOnlyWhatBothLookedAt(t *testing.T) {
	old := report.New("vet", "x")
	old.Packages = []string{"./..."}
	old.Findings = []report.Finding{codeFinding("LA103", "a.go", 10, "rdb.Del(ctx, key)")}
	cur := report.New("probe", "x")
	cur.Nodes = []report.Node{{Addr: "127.0.0.1:1", Role: "primary", Server: "valkey", Version: "9.1.2"}}
	c := report.Compare(old, cur)
	if len(c.Findings) != 0 || len(c.NotCompared) != 2 || c.DiffExit() != 0 {
		t.Errorf("findings %q, not compared %q", changes(c), c.NotCompared)
	}
}

func TestCompareNodes(t *testing.T) {
	node := func(addr, version string, delifeq report.Answer) report.Node {
		return report.Node{Addr: addr, Role: "replica", Promotable: report.PromotableYes, Server: "valkey", Version: version, DELIFEQ: delifeq}
	}
	old, cur := report.New("probe", "x"), report.New("probe", "x")
	old.Nodes = []report.Node{node("a:1", "8.1.1", report.No), node("b:1", "9.1.2", report.Yes), node("c:1", "9.1.2", report.Yes)}
	cur.Nodes = []report.Node{node("a:1", "9.1.2", report.Yes), node("b:1", "9.0.3", report.Yes), node("d:1", "9.1.2", report.Yes)}
	var got []string
	for _, n := range report.Compare(old, cur).Nodes {
		got = append(got, n.Addr+" "+n.Change)
	}
	if strings.Join(got, ", ") != "a:1 upgraded, b:1 downgraded, c:1 removed, d:1 added" {
		t.Errorf("node changes: %v", got)
	}
}
