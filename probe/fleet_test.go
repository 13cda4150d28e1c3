package probe

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// TestFleet: what the verdict is judged on comes from the facts: each data
// node's answers with how they are known (Why, or why not), whether it can
// become primary and why, and the fleet's gaps; Sentinels are not in it.
func TestFleet(t *testing.T) {
	const p, r, s = "10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:26379"
	rep := replicaOf(probed(t, r, RoleReplica, "valkey-8.1.1"), p)
	fl := Evaluate([]Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), rep, {Addr: s, Role: RoleSentinel}, unreachable("10.0.0.4:6379")}, EvalOptions{Topology: Replication}).Fleet
	if fl.Topology != Replication || len(fl.Nodes) != 3 || len(fl.Gaps) != 0 {
		t.Fatalf("fleet %+v", fl)
	}
	got := fl.Nodes[1]
	want := join.Node{Ref: report.NodeRef{Addr: r, Role: "replica", Server: "valkey", Version: "8.1.1"},
		Promotable: report.PromotableYes, Promotion: report.Promotion{Kind: report.PromotionReplica}}
	if got.Ref != want.Ref || got.Promotable != want.Promotable || got.Promotion != want.Promotion {
		t.Errorf("node %+v\nwant %+v", got, want)
	}
	for c, a := range map[rules.Command]join.Answer{
		rules.UseDELIFEQ: {Answer: report.No, Evidence: report.AnswerSource{Kind: report.SourceCommandNil, Command: "DELIFEQ"}},
		rules.UseIFEQ:    {Answer: report.Yes, Evidence: report.AnswerSource{Kind: report.SourceSetTokens, Tokens: []string{"NX", "XX", "IFEQ"}}},
	} {
		if !reflect.DeepEqual(got.Answers[c], a) {
			t.Errorf("%s: %+v, want %+v", c, got.Answers[c], a)
		}
	}
	gone := fl.Nodes[2]
	if gone.Ref != (report.NodeRef{Addr: "10.0.0.4:6379", Role: "unknown"}) || gone.Promotable != report.PromotableUnknown ||
		!reflect.DeepEqual(gone.Answers[rules.UseLua], join.Answer{Evidence: report.AnswerSource{Kind: report.SourceUnreachable, Error: "dial tcp 10.0.0.4:6379: connect: connection refused"}}) {
		t.Errorf("unreachable node %+v", gone)
	}
	// A replica whose primary was not probed is a gap (and so is a fleet
	// without a primary).
	fl = Evaluate([]Facts{replicaOf(probed(t, r, RoleReplica, "valkey-9.1.2"), "10.0.0.9:6379")}, EvalOptions{Topology: Replication}).Fleet
	if len(fl.Gaps) != 2 || fl.Gaps[0].Node.Addr != r || fl.Gaps[0].What.Words(fl.Gaps[0].Node) != "replica 10.0.0.2:6379 (Valkey 9.1.2): its primary 10.0.0.9:6379 was not probed" ||
		fl.Gaps[1].Node.Addr != r || fl.Gaps[1].What.Words(fl.Gaps[1].Node) != "no primary among the data nodes found (10.0.0.2:6379): which node takes writes is unknown" {
		t.Errorf("gaps %+v", fl.Gaps)
	}
}

// TestProbeReasons: what lockaudit probe says of a fleet with an old
// replica, end to end from the facts: exactly these reasons, none about
// the code.
func TestProbeReasons(t *testing.T) {
	const p, r = "10.0.0.1:6379", "10.0.0.2:6379"
	v, _ := verdictOf([]Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r, RoleReplica, "valkey-8.1.1"), p)}, EvalOptions{Topology: Replication})
	want := []string{
		"native_release: unsafe — replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil (unknown command))",
		"native_extend: safe — every node that can become primary (2) has SET IFEQ",
		"lua: available — every node that can become primary (2) has Lua",
	}
	if got := v.Strings(); !slices.Equal(got, want) {
		t.Errorf("reasons:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
