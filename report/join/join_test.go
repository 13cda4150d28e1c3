package join

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// exampleCode is what analyzers/uses finds in a small service: DELIFEQ in
// three places, SET IFEQ in one, a Lua release script.
func exampleCode() []report.Use {
	site := func(file string, line int, what string) report.Site {
		return report.Site{Pos: report.Position{File: file, Line: line, Col: 2}, What: what}
	}
	return []report.Use{
		{Command: rules.UseDELIFEQ, Sites: []report.Site{site("billing/billing.go", 56, "DELIFEQ release"), site("checkout/checkout.go", 65, "DELIFEQ release"), site("shipping/shipping.go", 46, "DELIFEQ release")}},
		{Command: rules.UseIFEQ, Sites: []report.Site{site("checkout/checkout.go", 53, "SET IFEQ extend")}},
		{Command: rules.UseLua, Sites: []report.Site{site("billing/billing.go", 33, "Lua compare-and-delete script (billing.go:13)")}},
	}
}

// declared is a node that answers by its version, as preflight declares
// one, with the probe's words for why it can become primary.
func declared(t *testing.T, addr, role, version string, topology string) Node {
	t.Helper()
	v, err := rules.ParseTarget(version)
	if err != nil {
		t.Fatal(err)
	}
	n := Node{Ref: report.NodeRef{Addr: addr, Role: role, Server: string(v.Flavor), Version: v.Number()},
		Promotable: report.PromotableYes, Answers: map[rules.Command]Answer{}}
	switch {
	case role == report.RolePrimary:
		n.Promotion = report.Promotion{Kind: report.PromotionPrimary}
	case topology == report.TopologyCluster:
		n.Promotion = report.Promotion{Kind: report.PromotionClusterReplica}
	default:
		n.Promotion = report.Promotion{Kind: report.PromotionReplica}
	}
	for _, c := range rules.Commands() {
		a := report.Yes
		if f, ok := c.Feature(); ok {
			a = report.AnswerOf(rules.Supports(v, f))
		}
		n.Answers[c] = Answer{Answer: a, Evidence: report.AnswerSource{Kind: report.SourceDeclaredRelease}}
	}
	return n
}

// unreachable is a node nothing could be read on.
func unreachable(addr string) Node {
	const why = "dial tcp 10.0.0.7:6379: connect: connection refused"
	n := Node{Ref: report.NodeRef{Addr: addr, Role: report.RoleUnknown}, Promotion: report.Promotion{Kind: report.PromotionUnreached, Error: why}, Answers: map[rules.Command]Answer{}}
	for _, c := range rules.Commands() {
		n.Answers[c] = Answer{Evidence: report.AnswerSource{Kind: report.SourceUnreachable, Error: why}}
	}
	return n
}

// TestVerdict: each case's reasons are exactly these, in this order, and
// the run's exit status follows only what the code relies on. With the
// code's uses known, a reason names what the code does where, the node
// that breaks it and what to change first; a command the code does not
// send is "not relied on"; without them (lockaudit probe), reasons speak
// of the fleet alone.
func TestVerdict(t *testing.T) {
	const p, r1, r2 = "10.0.0.1:6379", "10.0.0.7:6379", "10.0.0.8:6379"
	const gapWhat = "replica 10.0.0.9:6379 (Valkey 9.1.2): its primary 10.0.0.8:6379 was not probed" // gap, worded
	gap := Gap{Node: report.NodeRef{Addr: "10.0.0.9:6379", Role: "replica", Server: "valkey", Version: "9.1.2"},
		What: report.FleetGap{Kind: report.GapPrimaryNotProbed, Primary: "10.0.0.8:6379"}}
	manual := func(n Node) Node {
		n.Promotable, n.Promotion = report.PromotableManual, report.Promotion{Kind: report.PromotionNoFailover}
		return n
	}
	tests := []struct {
		name     string
		fleet    func() Fleet
		uses     []report.Use
		fromCode bool
		words    [3]string
		exit     int
		reasons  []string
	}{
		{
			name: "all 9.1: safe, tied to the code",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), declared(t, r1, "replica", "valkey-9.1.2", "")}}
			},
			uses: exampleCode(), fromCode: true, words: [3]string{"safe", "safe", "available"}, exit: report.ExitOK,
			reasons: []string{
				"native_release: safe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) and every node that can become primary (2) has DELIFEQ",
				"native_extend: safe — the code extends with SET IFEQ (checkout/checkout.go:53) and every node that can become primary (2) has SET IFEQ",
				"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) and every node that can become primary (2) has Lua",
			},
		},
		{
			name: "promotable 8.1 replica breaks the DELIFEQ release",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), declared(t, r1, "replica", "valkey-8.1.1", "")}}
			},
			uses: exampleCode(), fromCode: true, words: [3]string{"unsafe", "safe", "available"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1); upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)",
				"native_extend: safe — the code extends with SET IFEQ (checkout/checkout.go:53) and every node that can become primary (2) has SET IFEQ",
				"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) and every node that can become primary (2) has Lua",
			},
		},
		{
			name: "Lua missing on the primary breaks the Lua release",
			fleet: func() Fleet {
				n := declared(t, p, "primary", "valkey-9.1.2", "")
				n.Answers[rules.UseLua] = Answer{Answer: report.No, Evidence: report.AnswerSource{Kind: report.SourceNoLuaEngine}}
				return Fleet{Topology: report.TopologyStandalone, Nodes: []Node{n}}
			},
			uses: exampleCode(), fromCode: true, words: [3]string{"safe", "safe", "missing"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: safe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) and every node that can become primary (1) has DELIFEQ",
				"native_extend: safe — the code extends with SET IFEQ (checkout/checkout.go:53) and every node that can become primary (1) has SET IFEQ",
				"lua: missing — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) but primary 10.0.0.1:6379 (Valkey 9.1.2, promotable) cannot run Lua (INFO scriptingengines: engines_count:0, no Lua engine); give 10.0.0.1:6379 a Lua engine (load the Lua module; EVAL must not be renamed away) before running the code's Lua, or move those lock steps to the native commands (DELIFEQ release, SET IFEQ PX extend)",
			},
		},
		{
			name: "the code relies on nothing the fleet lacks: not relied on",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), declared(t, r1, "replica", "valkey-8.0.2", "")}}
			},
			uses: exampleCode()[2:], fromCode: true, words: [3]string{"unsafe", "unsafe", "available"}, exit: report.ExitOK,
			reasons: []string{
				"native_release: not relied on — the code does not release with DELIFEQ or DELEX, so this verdict does not affect it (replica 10.0.0.7:6379 (Valkey 8.0.2, promotable) has no DELIFEQ (declared valkey-8.0.2))",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (replica 10.0.0.7:6379 (Valkey 8.0.2, promotable) has no SET IFEQ (declared valkey-8.0.2))",
				"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) and every node that can become primary (2) has Lua",
			},
		},
		{
			name: "no uses at all: nothing is relied on",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyStandalone, Nodes: []Node{declared(t, p, "primary", "valkey-8.0.2", "")}}
			},
			fromCode: true, words: [3]string{"unsafe", "unsafe", "available"}, exit: report.ExitOK,
			reasons: []string{
				"native_release: not relied on — the code does not release with DELIFEQ or DELEX, so this verdict does not affect it (primary 10.0.0.1:6379 (Valkey 8.0.2, promotable) has no DELIFEQ (declared valkey-8.0.2))",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (primary 10.0.0.1:6379 (Valkey 8.0.2, promotable) has no SET IFEQ (declared valkey-8.0.2))",
				"lua: not relied on — the code runs no Lua, so this verdict does not affect it (every node that can become primary (1) has Lua)",
			},
		},
		{
			name: "cluster replicas get the no-failover advice; a Redis node lacks DELIFEQ in every version",
			fleet: func() Fleet {
				c := report.TopologyCluster
				return Fleet{Topology: c, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", c), declared(t, r1, "replica", "valkey-8.1.1", c), declared(t, r2, "replica", "redis-7.0.15", c)}}
			},
			uses: exampleCode(), fromCode: true, words: [3]string{"unsafe", "unsafe", "available"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1); upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)",
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.8:6379 (Redis 7.0.15, promotable) has no DELIFEQ (declared redis-7.0.15); upgrade 10.0.0.8:6379 from redis-7.0.15 to Redis 8.4+ and release with DELEX key IFEQ token, or move 10.0.0.8:6379 to Valkey 9.0+ before releasing with DELIFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)",
				"native_extend: unsafe — the code extends with SET IFEQ (checkout/checkout.go:53) but replica 10.0.0.8:6379 (Redis 7.0.15, promotable) has no SET IFEQ (declared redis-7.0.15); upgrade 10.0.0.8:6379 from redis-7.0.15 to Redis 8.4+ before extending with SET IFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)",
				"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) and every node that can become primary (3) has Lua",
			},
		},
		{
			name: "unreachable node: unknown, with what to restore",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), unreachable(r1)}}
			},
			uses: exampleCode(), fromCode: true, words: [3]string{"unknown", "unknown", "unknown"}, exit: report.ExitUnknown,
			reasons: []string{
				"native_release: unknown — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but DELIFEQ is unknown on 10.0.0.7:6379 (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused); restore what LA208 reports for 10.0.0.7:6379 and run again (unknown is not safe)",
				"native_extend: unknown — the code extends with SET IFEQ (checkout/checkout.go:53) but SET IFEQ is unknown on 10.0.0.7:6379 (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused); restore what LA208 reports for 10.0.0.7:6379 and run again (unknown is not safe)",
				"lua: unknown — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) but Lua is unknown on 10.0.0.7:6379 (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused); restore what LA208 reports for 10.0.0.7:6379 and run again (unknown is not safe)",
			},
		},
		{
			name: "a manual-only node and a gap: notes, facts in order, and what to restore",
			fleet: func() Fleet {
				c := report.TopologyCluster
				return Fleet{Topology: c, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", c), manual(declared(t, r1, "replica", "valkey-8.1.1", c))},
					Gaps: []Gap{gap}}
			},
			uses: exampleCode()[2:], fromCode: true, words: [3]string{"unknown", "unknown", "unknown"}, exit: report.ExitUnknown,
			reasons: []string{
				"native_release: not relied on — the code does not release with DELIFEQ or DELEX, so this verdict does not affect it (replica 10.0.0.7:6379 (Valkey 8.1.1) has no DELIFEQ; cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it; not every node that can become primary is known: " + gapWhat + ")",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (not every node that can become primary is known: " + gapWhat + ")",
				"lua: unknown — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) but not every node that can become primary is known: " + gapWhat + "; restore what LA208 reports for 10.0.0.9:6379 and run again (unknown is not safe)",
			},
		},
		{
			name: "a -target release stands for every node of it",
			fleet: func() Fleet {
				n := declared(t, "target valkey-8.1", "primary", "valkey-8.1", "")
				n.Ref.Target = "valkey-8.1"
				return Fleet{Topology: report.TopologyDeclared, Nodes: []Node{n}}
			},
			uses: exampleCode()[:1], fromCode: true, words: [3]string{"unsafe", "safe", "available"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but every valkey-8.1 node (declared by -target, promotable) has no DELIFEQ (declared valkey-8.1.0); upgrade every valkey-8.1 node that can become primary from valkey-8.1 to Valkey 9.0+ before releasing with DELIFEQ",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (every node that can become primary (1) has SET IFEQ)",
				"lua: not relied on — the code runs no Lua, so this verdict does not affect it (every node that can become primary (1) has Lua)",
			},
		},
		{
			name: "the fleet alone (lockaudit probe): no code in the reasons",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), declared(t, r1, "replica", "valkey-8.1.1", "")}}
			},
			uses: []report.Use{{Command: rules.UseDELIFEQ}, {Command: rules.UseIFEQ}}, words: [3]string{"unsafe", "safe", "available"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1)",
				"native_extend: safe — every node that can become primary (2) has SET IFEQ",
				"lua: available — every node that can become primary (2) has Lua",
			},
		},
		{
			name: "the fleet alone: a gap before the note, both DELIFEQ and DELEX judged",
			fleet: func() Fleet {
				c := report.TopologyCluster
				return Fleet{Topology: c, Nodes: []Node{declared(t, p, "primary", "valkey-9.2.0", c), manual(declared(t, r1, "replica", "valkey-8.1.1", c))},
					Gaps: []Gap{gap}}
			},
			uses: []report.Use{{Command: rules.UseDELIFEQ}, {Command: rules.UseDELEX}}, words: [3]string{"unknown", "unknown", "unknown"}, exit: report.ExitUnknown,
			reasons: []string{
				"native_release: unknown — not every node that can become primary is known: " + gapWhat,
				"native_release: note — replica 10.0.0.7:6379 (Valkey 8.1.1) has no DELIFEQ; cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it",
				"native_release: unknown — not every node that can become primary is known: " + gapWhat,
				"native_release: note — replica 10.0.0.7:6379 (Valkey 8.1.1) has no DELEX; cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it",
				"native_extend: unknown — not every node that can become primary is known: " + gapWhat,
				"lua: unknown — not every node that can become primary is known: " + gapWhat,
			},
		},
		{
			name: "release judged twice: an unsafe DELEX beats an unknown DELIFEQ",
			fleet: func() Fleet {
				return Fleet{Topology: report.TopologyReplication, Nodes: []Node{declared(t, p, "primary", "valkey-9.1.2", ""), unreachable(r1)}}
			},
			uses: []report.Use{{Command: rules.UseDELIFEQ}, {Command: rules.UseDELEX}}, words: [3]string{"unsafe", "unknown", "unknown"}, exit: report.ExitFindings,
			reasons: []string{
				"native_release: unknown — 10.0.0.7:6379: DELIFEQ unknown (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused)",
				"native_release: unsafe — primary 10.0.0.1:6379 (Valkey 9.1.2, promotable) has no DELEX (declared valkey-9.1.2)",
				"native_release: unknown — 10.0.0.7:6379: DELEX unknown (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused)",
				"native_extend: unknown — 10.0.0.7:6379: SET IFEQ unknown (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused)",
				"lua: unknown — 10.0.0.7:6379: Lua unknown (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused)",
			},
		},
		{
			name:  "no data node: unknown, never safe",
			fleet: func() Fleet { return Fleet{Topology: report.TopologySentinel} },
			uses:  exampleCode()[:1], fromCode: true, words: [3]string{"unknown", "unknown", "unknown"}, exit: report.ExitUnknown,
			reasons: []string{
				"native_release: unknown — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but no data node was found",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (no data node was found)",
				"lua: not relied on — the code runs no Lua, so this verdict does not affect it (no data node was found)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Verdict(tt.fleet(), tt.uses, tt.fromCode)
			var words [3]string
			for i, p := range rules.Paths() {
				words[i] = v.Of(p).Word()
			}
			if words != tt.words {
				t.Errorf("verdict %v, want %v", words, tt.words)
			}
			if got := v.Strings(); !slices.Equal(got, tt.reasons) {
				t.Errorf("reasons:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.reasons, "\n  "))
			}
			run := &report.Run{Verdict: v, Uses: tt.uses}
			if got := report.ExitCode(run); got != tt.exit {
				t.Errorf("exit %d, want %d", got, tt.exit)
			}
		})
	}
}

// TestCheckReasons: the typed reasons carry what the words are made of —
// the node, the code's sites, the evidence and the advice.
func TestCheckReasons(t *testing.T) {
	fl := Fleet{Topology: report.TopologySentinel, Nodes: []Node{declared(t, "10.0.0.1:6379", "primary", "valkey-9.1.2", ""), declared(t, "10.0.0.7:6379", "replica", "valkey-8.1.1", "")}}
	v := Verdict(fl, exampleCode(), true)
	rel := v.Of(rules.NativeRelease)
	if len(rel.Checks) != 1 {
		t.Fatalf("release checks: %+v", rel.Checks)
	}
	c := rel.Checks[0]
	if c.Command != rules.UseDELIFEQ || !c.ReliedOn || len(c.Sites) != 3 || c.Nodes != 2 || c.Supported != 1 || c.Safe() != report.No {
		t.Errorf("check %+v", c)
	}
	if len(c.Reasons) != 1 {
		t.Fatalf("reasons %+v", c.Reasons)
	}
	r := c.Reasons[0]
	want := report.Reason{Kind: report.Lacks, Node: report.NodeRef{Addr: "10.0.0.7:6379", Role: "replica", Server: "valkey", Version: "8.1.1"}, Answer: report.No,
		Evidence: report.AnswerSource{Kind: report.SourceDeclaredRelease}, Promotion: report.Promotion{Kind: report.PromotionReplica},
		Advice: report.AdviseRemedyOrPriority}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("reason\n  %+v\nwant\n  %+v", r, want)
	}
	// Without the code, a node that lacks a command gets no advice: the
	// code's fix is not the fleet's to know.
	if fleetOnly := Verdict(fl, []report.Use{{Command: rules.UseDELIFEQ}}, false); fleetOnly.Of(rules.NativeRelease).Checks[0].Reasons[0].Advice != 0 {
		t.Errorf("advice without the code: %+v", fleetOnly.Of(rules.NativeRelease).Checks[0].Reasons[0])
	}
}

// TestRuns: one run of a code half and a fleet half.
func TestRuns(t *testing.T) {
	pos := &report.Position{File: "a.go", Line: 3, Col: 1}
	code := report.New("vet", "v1")
	code.Packages = []string{"./..."}
	code.Uses = exampleCode()[:1]
	code.Findings = []report.Finding{{Rule: "LA103", Severity: rules.Error, Message: "m", Pos: pos}}
	code.Errors = []report.Error{{Where: "p", Message: "code"}}
	fleet := &report.Run{Topology: report.TopologyReplication, Nodes: []report.Node{{Addr: "10.0.0.1:6379", Role: "primary"}},
		Findings: []report.Finding{{Rule: "LA208", Severity: rules.Warning, Message: "m", Node: "10.0.0.1:6379"}},
		Errors:   []report.Error{{Where: "10.0.0.1:6379", Message: "fleet"}}, Verdict: report.NewVerdict()}
	run := Runs("audit", code, fleet, time.Date(2025, 6, 2, 9, 0, 0, 0, time.FixedZone("x", 3600)))
	if run.Command != "audit" || run.Time != "2025-06-02T08:00:00Z" || run.Topology != "replication" || len(run.Nodes) != 1 || run.Verdict != fleet.Verdict ||
		len(run.Uses) != 1 || len(run.Packages) != 1 {
		t.Errorf("run %+v", run)
	}
	if len(run.Findings) != 2 || run.Findings[0].Rule != "LA103" || run.Findings[1].Rule != "LA208" {
		t.Errorf("findings %+v, want the code's then the node's", run.Findings)
	}
	if len(run.Errors) != 2 || run.Errors[0].Message != "code" || run.Errors[1].Message != "fleet" {
		t.Errorf("errors %+v", run.Errors)
	}
	if code.Command != "vet" || len(code.Findings) != 1 {
		t.Errorf("Runs changed the code half: %+v", code)
	}
}
