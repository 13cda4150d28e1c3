package probe

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
)

// exampleCode is what analyzers/uses finds in a small service: DELIFEQ in
// three places, SET IFEQ in one, a Lua release script.
func exampleCode() []report.Use {
	site := func(file string, line int, what string) report.Site {
		return report.Site{Pos: report.Position{File: file, Line: line, Col: 2}, What: what}
	}
	return []report.Use{
		{Command: UseDELIFEQ, Sites: []report.Site{site("billing/billing.go", 56, "DELIFEQ release"), site("checkout/checkout.go", 65, "DELIFEQ release"), site("shipping/shipping.go", 46, "DELIFEQ release")}},
		{Command: UseIFEQ, Sites: []report.Site{site("checkout/checkout.go", 53, "SET IFEQ extend")}},
		{Command: UseLua, Sites: []report.Site{site("billing/billing.go", 33, "Lua compare-and-delete script (billing.go:13)")}},
	}
}

// TestJoinedReasons: with the code's uses known, each reason names what the
// code does where, the node that breaks it, and what to change first; a
// command the code does not send is "not relied on", and the exit status
// follows only what it relies on.
func TestJoinedReasons(t *testing.T) {
	const p, r1, r2 = "10.0.0.1:6379", "10.0.0.7:6379", "10.0.0.8:6379"
	tests := []struct {
		name    string
		nodes   func() []Facts
		opt     EvalOptions
		exit    int
		reasons []string // exact reasons that must appear
		absent  []string // substrings that must not
	}{
		{
			name: "all 9.1: safe, tied to the code",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)}
			},
			opt:  EvalOptions{Topology: Replication, CodeKnown: true, Code: exampleCode()},
			exit: report.ExitOK,
			reasons: []string{
				"native_release: safe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) and every node that can become primary (2) has DELIFEQ",
				"native_extend: safe — the code extends with SET IFEQ (checkout/checkout.go:53) and every node that can become primary (2) has SET IFEQ",
				"lua: available — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) and every node that can become primary (2) has Lua",
			},
		},
		{
			name: "promotable 8.1 replica breaks the DELIFEQ release",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p)}
			},
			opt:  EvalOptions{Topology: Replication, CodeKnown: true, Code: exampleCode()},
			exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1); upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)",
			},
		},
		{
			name: "Lua missing on the primary breaks the Lua release",
			nodes: func() []Facts {
				f := probed(t, p, RolePrimary, "valkey-9.1.2")
				f.Lua, f.Why[WhyLua] = report.No, "INFO scriptingengines: engines_count:0, no Lua engine"
				return []Facts{f}
			},
			opt:  EvalOptions{Topology: Standalone, CodeKnown: true, Code: exampleCode()},
			exit: report.ExitFindings,
			reasons: []string{
				"lua: missing — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13)) but primary 10.0.0.1:6379 (Valkey 9.1.2, promotable) cannot run Lua (INFO scriptingengines: engines_count:0, no Lua engine); give 10.0.0.1:6379 a Lua engine (load the Lua module; EVAL must not be renamed away) before running the code's Lua, or move those lock steps to the native commands (DELIFEQ release, SET IFEQ PX extend)",
			},
		},
		{
			name: "the code relies on nothing the fleet lacks: not relied on",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.0.2"), p)}
			},
			opt:  EvalOptions{Topology: Replication, CodeKnown: true, Code: []report.Use{exampleCode()[2]}},
			exit: report.ExitOK,
			reasons: []string{
				"native_release: not relied on — the code does not release with DELIFEQ or DELEX, so this verdict does not affect it (replica 10.0.0.7:6379 (Valkey 8.0.2, promotable) has no DELIFEQ (declared valkey-8.0.2))",
				"native_extend: not relied on — the code does not extend with SET IFEQ, so this verdict does not affect it (replica 10.0.0.7:6379 (Valkey 8.0.2, promotable) has no SET IFEQ (declared valkey-8.0.2))",
			},
			absent: []string{"native_release: unsafe", "native_extend: unsafe"},
		},
		{
			name: "no uses at all: nothing is relied on, even with the default uses empty",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-8.0.2")}
			},
			opt:     EvalOptions{Topology: Standalone, CodeKnown: true},
			exit:    report.ExitOK,
			reasons: []string{"lua: not relied on — the code runs no Lua, so this verdict does not affect it (every node that can become primary (1) has Lua)"},
		},
		{
			name: "Sentinel replica at priority 0 does not break it; a cluster replica gets the no-failover advice",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-8.1.1"), p), replicaOf(probed(t, r2, RoleReplica, "redis-7.0.15"), p)}
			},
			opt:  EvalOptions{Topology: Cluster, CodeKnown: true, Code: exampleCode()},
			exit: report.ExitFindings,
			reasons: []string{
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1); upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)",
				"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but replica 10.0.0.8:6379 (Redis 7.0.15, promotable) has no DELIFEQ (declared redis-7.0.15); no Redis version has DELIFEQ: replace 10.0.0.8:6379 with a server that has it (Valkey 9.0+, no Redis version) before releasing with DELIFEQ, or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)",
			},
		},
		{
			name: "unreachable node: unknown, with what to restore",
			nodes: func() []Facts {
				return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), unreachable(r1)}
			},
			opt:     EvalOptions{Topology: Replication, CodeKnown: true, Code: exampleCode()},
			exit:    report.ExitUnknown,
			reasons: []string{"native_release: unknown — the code releases with DELIFEQ (billing/billing.go:56, checkout/checkout.go:65 and 1 more) but DELIFEQ is unknown on 10.0.0.7:6379 (not reachable: dial tcp 10.0.0.7:6379: connect: connection refused); restore what LA208 reports for 10.0.0.7:6379 and run again (unknown is not safe)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes := tt.nodes()
			for i := range nodes {
				if len(nodes[i].Errors) == 0 {
					nodes[i].Declared = true // the evidence reads "declared ..."
				}
			}
			v, fs := Evaluate(nodes, tt.opt)
			all := strings.Join(v.Reasons, "\n")
			for _, r := range tt.reasons {
				found := false
				for _, got := range v.Reasons {
					found = found || got == r
				}
				if !found {
					t.Errorf("reasons lack\n  %s\ngot:\n  %s", r, strings.ReplaceAll(all, "\n", "\n  "))
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(all, a) {
					t.Errorf("reasons contain %q:\n%s", a, all)
				}
			}
			run := &report.Run{Verdict: &v, Uses: tt.opt.Code}
			for _, f := range fs {
				if f.Severity.String() == "error" {
					run.Findings = append(run.Findings, f)
				}
			}
			if got := report.ExitCode(run); got != tt.exit {
				t.Errorf("exit %d, want %d (verdict %+v)", got, tt.exit, v)
			}
		})
	}
}

// TestProbeReasonsUnchanged: without the code's uses, the probe's own
// wording stays (its tests and users parse it).
func TestProbeReasonsUnchanged(t *testing.T) {
	const p, r = "10.0.0.1:6379", "10.0.0.2:6379"
	v, _ := Evaluate([]Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r, RoleReplica, "valkey-8.1.1"), p)}, EvalOptions{Topology: Replication})
	want := "native_release: unsafe — replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (by version: Valkey 8.1.1)"
	if !strings.Contains(strings.Join(v.Reasons, "\n"), "native_release: unsafe — replica 10.0.0.2:6379 (Valkey 8.1.1, promotable) has no DELIFEQ") {
		t.Errorf("reasons lack %q:\n%s", want, strings.Join(v.Reasons, "\n"))
	}
	if strings.Contains(strings.Join(v.Reasons, "\n"), "the code") {
		t.Errorf("probe reasons mention the code:\n%s", strings.Join(v.Reasons, "\n"))
	}
}
