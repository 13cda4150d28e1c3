package report_test

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Configuration changes: only for a node with the rule's finding, and only
// the settings that differ from the recommendation.
func TestPlanConfigOnlyWhereItDiffers(t *testing.T) {
	r := report.New("probe", "x")
	r.Verdict = report.NewVerdict()
	r.Nodes = []report.Node{
		{Addr: "127.0.0.1:1", Role: "primary", Config: map[string]string{"appendonly": "yes", "appendfsync": "everysec", "min-replicas-to-write": "0", "min-replicas-max-lag": "10"}},
		{Addr: "127.0.0.1:2", Role: "replica", Config: map[string]string{"appendonly": "yes", "appendfsync": "everysec"}},
	}
	r.Findings = []report.Finding{
		{Rule: "LA205", Severity: rules.Info, Message: "appendonly yes, appendfsync everysec", Node: "127.0.0.1:1"},
		{Rule: "LA204", Severity: rules.Info, Message: "min-replicas-to-write 0", Node: "127.0.0.1:1"},
	}
	p := report.PlanOf(r)
	var got []string
	for _, s := range p.Steps {
		for _, c := range s.Config {
			got = append(got, c.Node+" "+c.Setting+" "+c.Current+"->"+c.Recommended)
		}
	}
	want := "127.0.0.1:1 min-replicas-to-write 0->1, 127.0.0.1:1 appendfsync everysec->always"
	if strings.Join(got, ", ") != want {
		t.Errorf("config changes %v, want %s (no change for a setting already as recommended, none for a node without the finding)", got, want)
	}
}

// The plan orders servers to upgrade: replicas before their primary.
func TestPlanUpgradesReplicasFirst(t *testing.T) {
	r := loadRun(t, "audit-unsafe")
	p := report.PlanOf(r)
	if p == nil || len(p.Steps) == 0 {
		t.Fatal("no plan")
	}
	for _, s := range p.Steps {
		if s.Kind != report.PlanUpgrade {
			continue
		}
		seenPrimary := false
		for _, w := range s.Nodes {
			if w.Role == report.RolePrimary {
				seenPrimary = true
			} else if seenPrimary {
				t.Errorf("replica %s after a primary in %+v", w.Addr, s.Nodes)
			}
		}
		return
	}
	t.Errorf("the unsafe fixture's plan has no upgrade step: %+v", p.Steps)
}
