package report_test

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func codeFinding(rule rules.ID, file string, line int, src string) report.Finding {
	return report.Finding{Rule: rule, Severity: rules.Error, Message: string(rule) + " here", Pos: &report.Position{File: file, Line: line, Col: 1}, Source: src}
}

func changes(c *report.Comparison) string {
	var out []string
	for _, f := range c.Findings {
		out = append(out, f.Change+":"+string(f.Finding.Rule)+"@"+f.Finding.Where())
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

// A finding whose line a fix rewrote (LA106's SETNX became SET NX EX) but
// that is still there (LA107: the token on that line is not unique) is
// unchanged: matched by rule, file and enclosing function when its line
// hash no longer matches. In another function it would be fixed and new.
func TestCompareMatchesWithinFunction(t *testing.T) {
	inFunc := func(f report.Finding, fn string) report.Finding { f.Func = fn; return f }
	old := report.New("vet", "x")
	old.Packages = []string{"./..."}
	old.Findings = []report.Finding{
		inFunc(codeFinding("LA106", "inv.go", 43, `set, err := redis.Int(conn.Do("SETNX", lockKey, token))`), "Restock"),
		inFunc(codeFinding("LA107", "inv.go", 43, `set, err := redis.Int(conn.Do("SETNX", lockKey, token))`), "Restock"),
		inFunc(codeFinding("LA108", "inv.go", 80, `conn.Do("DELIFEQ", k, t) // old comment`), "Release"),
		inFunc(codeFinding("LA114", "inv.go", 90, `conn.Do("PEXPIRE", k, 30)`), "Heartbeat"),
	}
	cur := report.New("vet", "x")
	cur.Packages = []string{"./..."}
	cur.Findings = []report.Finding{
		inFunc(codeFinding("LA107", "inv.go", 40, `set, err := redis.String(conn.Do("SET", lockKey, token, "NX", "EX", 30))`), "Restock"),
		inFunc(codeFinding("LA108", "inv.go", 70, `conn.Do("DELIFEQ", k, t) // new comment`), "Release"),
		inFunc(codeFinding("LA114", "inv.go", 95, `conn.Do("PEXPIRE", k, 60)`), "Refresh"),
	}
	c := report.Compare(old, cur)
	want := "new:LA114@inv.go:95 fixed:LA106@inv.go:43 fixed:LA114@inv.go:90 unchanged:LA107@inv.go:40 unchanged:LA108@inv.go:70"
	if got := changes(c); got != want {
		t.Errorf("changes\n got %s\nwant %s", got, want)
	}
	// Runs written before findings named their function match by line
	// only.
	for i := range old.Findings {
		old.Findings[i].Func = ""
	}
	if got := report.Compare(old, cur).Counts(); got[report.ChangeUnchanged] != 0 || got[report.ChangeFixed] != 4 {
		t.Errorf("without functions: %v, want 4 fixed, none unchanged", got)
	}
}
