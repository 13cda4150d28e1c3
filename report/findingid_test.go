package report

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
)

func idFinding(rule rules.ID, file string, line int, src, fn string) Finding {
	return Finding{Rule: rule, Severity: rules.Error, Message: string(rule), Pos: &Position{File: file, Line: line, Col: 1}, Source: src, Func: fn}
}

// IDs come from the baseline's key: the same wherever the line moves, two
// identical lines told apart, and an edited line's finding keeps its
// earlier ID when compared with the earlier run (CarryIDs).
func TestFindingIDs(t *testing.T) {
	fs := []Finding{
		idFinding("LA103", "a.go", 10, "rdb.Del(ctx, key)", "F"),
		idFinding("LA103", "a.go", 30, "  rdb.Del(ctx,  key)", "G"),
		idFinding("LA107", "a.go", 40, "ok := rdb.SetNX(ctx, k, host, 0)", "G"),
	}
	withIDs(fs)
	if !idPattern.MatchString(fs[0].ID) || !strings.HasPrefix(fs[0].ID, "LA103-") || fs[1].ID != fs[0].ID+".2" {
		t.Errorf("IDs %q, %q: want LA103-xxxx and the same with .2", fs[0].ID, fs[1].ID)
	}
	moved := []Finding{idFinding("LA107", "a.go", 90, "ok := rdb.SetNX(ctx, k, host, 0)", "G")}
	withIDs(moved)
	if moved[0].ID != fs[2].ID {
		t.Errorf("a moved line: %s, was %s", moved[0].ID, fs[2].ID)
	}
	old, cur := &Run{Findings: fs}, &Run{Findings: []Finding{idFinding("LA107", "a.go", 41, `ok := rdb.Set(ctx, k, host, "NX", "EX", 30)`, "G")}}
	CarryIDs(old, cur)
	if cur.Findings[0].ID != fs[2].ID {
		t.Errorf("an edited line: %q, want the earlier %s", cur.Findings[0].ID, fs[2].ID)
	}
	if err := checkIDs(append(fs, fs[0])); err == nil || !strings.Contains(err.Error(), "used twice") {
		t.Errorf("a repeated ID: %v", err)
	}
	bad := fs[0]
	bad.ID = "LA104-0000"
	if err := checkIDs([]Finding{bad}); err == nil {
		t.Error("an ID of another rule was accepted")
	}
}

// The matrix: an error on a fleet a replica fails over to is critical, on
// a lone primary medium; a warning on a server that never serves locks low.
func TestRiskMatrix(t *testing.T) {
	primary := Node{Addr: "p:1", Role: RolePrimary, Promotable: PromotableYes}
	replica := func(p Promotable) Node { return Node{Addr: "r:1", Role: RoleReplica, Promotable: p} }
	code := idFinding("LA103", "a.go", 1, "x", "F")
	for _, tc := range []struct {
		nodes []Node
		f     Finding
		want  string
	}{
		{[]Node{primary, replica(PromotableYes)}, code, RiskCritical},
		{[]Node{primary, replica(PromotableManual)}, code, RiskHigh},
		{[]Node{primary, replica(PromotableNo)}, code, RiskMedium},
		{[]Node{primary}, code, RiskMedium},
		{nil, code, RiskCritical}, // not read: not safe
		{[]Node{primary, replica(PromotableUnknown)}, code, RiskCritical},
		{[]Node{primary, replica(PromotableNo)}, Finding{Rule: "LA205", Severity: rules.Warning, Node: "r:1"}, RiskLow},
		{[]Node{primary, replica(PromotableNo)}, Finding{Rule: "LA205", Severity: rules.Info, Node: "p:1"}, RiskMedium},
	} {
		if got := RiskOf(&Run{Nodes: tc.nodes}, tc.f); got.Rating != tc.want {
			t.Errorf("%s %s on %v: %+v, want %s", tc.f.Severity, tc.f.Rule, tc.nodes, got, tc.want)
		}
	}
}

// The most precise assignment wins: an ID over a rule over a folder.
func TestAssigned(t *testing.T) {
	f := idFinding("LA103", "billing/b.go", 1, "x", "F")
	f.ID = "LA103-3f9c"
	en := &Engagement{Assign: []Assignment{
		{Match: "billing/", Owner: "billing team", Effort: "1d"},
		{Match: "LA103", Owner: "platform"},
		{Match: "LA103-3f9c", Effort: "2h"},
		{Match: "bill", Owner: "not a folder of it"},
	}}
	if owner, effort := assigned(en, f); owner != "platform" || effort != "2h" {
		t.Errorf("owner %q effort %q, want platform and 2h", owner, effort)
	}
	other := idFinding("LA107", "shipping/s.go", 1, "x", "F")
	if owner, effort := assigned(en, other); owner != "" || effort != "" {
		t.Errorf("an unassigned finding: %q %q", owner, effort)
	}
}
