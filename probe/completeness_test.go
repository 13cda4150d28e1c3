package probe

import (
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

func TestGaps(t *testing.T) {
	const p, r1, r2 = "10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"
	noReplicas := func(f Facts, why string) Facts {
		f.Replicas = -1
		f.Errors = append(f.Errors, FactError{Fact: FactReplication, Command: "INFO replication", Reason: why})
		return f
	}
	noRole := func(f Facts) Facts {
		f = noReplicas(f, "NOPERM no info")
		f.Role = RoleUnknown
		f.Errors = append(f.Errors, FactError{Fact: FactRole, Command: "ROLE", Reason: "NOPERM no role"})
		return f
	}
	withView := func(f Facts) Facts { f.ClusterView = true; return f }
	noView := func(f Facts) Facts {
		f.Errors = append(f.Errors, FactError{Fact: FactCluster, Command: "CLUSTER NODES", Reason: "NOPERM no nodes"})
		return f
	}
	priority := func(f Facts, prio int) Facts { f.ReplicaPriority = prio; return f }
	tests := []struct {
		name     string
		topology string
		nodes    func() []Facts
		want     []string // substrings, one per gap, in order ("" = none)
	}{
		{"complete replication", Replication, func() []Facts {
			return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)}
		}, nil},
		{"a primary's replicas unreadable", Replication, func() []Facts {
			return []Facts{noReplicas(probed(t, p, RolePrimary, "valkey-9.1.2"), "NOPERM x")}
		}, []string{"primary " + p + " (Valkey 9.1.2): its replicas could not be listed (INFO replication: NOPERM x)"}},
		{"a replica's replicas unreadable", Replication, func() []Facts {
			return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), noReplicas(replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p), "no answer")}
		}, []string{"replica " + r1 + " (Valkey 9.1.2): its replicas could not be listed (INFO replication: no answer)"}},
		{"a role unreadable", Standalone, func() []Facts {
			return []Facts{noRole(probed(t, p, RolePrimary, "valkey-9.1.2"))}
		}, []string{p + " (Valkey 9.1.2): its role and replicas could not be read (INFO replication: NOPERM no info; ROLE: NOPERM no role)"}},
		{"an unreachable node needs no gap: its answers are unknown", Replication, func() []Facts {
			return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), unreachable(r1)}
		}, nil},
		{"Sentinel never promotes through a priority-0 replica", Sentinel, func() []Facts {
			return []Facts{probed(t, p, RolePrimary, "valkey-9.1.2"), noReplicas(priority(replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p), 0), "x")}
		}, nil},
		{"a cluster without any member list", Cluster, func() []Facts {
			return []Facts{noView(probed(t, p, RolePrimary, "valkey-9.1.2")), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)}
		}, []string{"primary " + p + " (Valkey 9.1.2): the cluster's members could not be listed (CLUSTER NODES: NOPERM no nodes)"}},
		{"one member list names every member; replica lists are not needed", Cluster, func() []Facts {
			return []Facts{noView(probed(t, p, RolePrimary, "valkey-9.1.2")), withView(noReplicas(replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p), "x"))}
		}, nil},
		{"a replica cycle", Replication, func() []Facts {
			return []Facts{replicaOf(probed(t, r2, RoleReplica, "valkey-9.1.2"), r1), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), r2)}
		}, []string{"replicas " + r1 + " → " + r2 + " → " + r1 + " replicate each other in a cycle"}},
		{"a replica of a cycle is the same gap", Replication, func() []Facts {
			return []Facts{replicaOf(probed(t, p, RoleReplica, "valkey-9.1.2"), r1), replicaOf(probed(t, r2, RoleReplica, "valkey-9.1.2"), r1), replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), r2)}
		}, []string{"replicas " + r1 + " → " + r2 + " → " + r1}},
		{"a primary that was not probed, and so no primary", Replication, func() []Facts {
			return []Facts{replicaOf(probed(t, r1, RoleReplica, "valkey-9.1.2"), p)}
		}, []string{"replica " + r1 + " (Valkey 9.1.2): its primary " + p + " was not probed", "no primary among the data nodes found (" + r1 + ")"}},
		{"nodes past the limit", Replication, func() []Facts {
			f := probed(t, p, RolePrimary, "valkey-9.1.2")
			f.Errors = append(f.Errors, FactError{Fact: FactDiscovery, Reason: "3 nodes it named were not probed"})
			return []Facts{f}
		}, []string{"primary " + p + " (Valkey 9.1.2): 3 nodes it named were not probed"}},
		{"a declared fleet is complete by declaration", DeclaredTop, func() []Facts {
			return []Facts{Declared(p, RoleReplica, ver(t, "valkey-9.1.2"))}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gs := gaps(judge(tt.nodes(), tt.topology), tt.topology)
			if len(gs) != len(tt.want) {
				t.Fatalf("%d gaps, want %d: %+v", len(gs), len(tt.want), gs)
			}
			for i, g := range gs {
				if w := g.what.Words(g.node); !strings.Contains(w, tt.want[i]) {
					t.Errorf("gap %d: %q, want %q", i, w, tt.want[i])
				}
			}
			// Every gap keeps every verdict that is not unsafe from being good.
			v, findings := verdictOf(tt.nodes(), EvalOptions{Topology: tt.topology})
			if len(gs) > 0 && slices.ContainsFunc(v.Paths, func(pv report.PathVerdict) bool { return pv.Safe == report.Yes }) {
				t.Errorf("a verdict is good despite the gaps: %v", words(v))
			}
			if ext := v.Of(rules.NativeExtend); len(gs) == 0 && tt.topology != DeclaredTop && ext.Safe != report.Yes && !strings.Contains(tt.name, "unreachable") {
				t.Errorf("no gap, yet extend is %s: %v", ext.Word(), v.Strings())
			}
			for _, g := range gs {
				if !g.own {
					continue
				}
				found := false
				for _, f := range findings {
					found = found || f.Rule == "LA208" && f.Node == g.node.Addr && strings.Contains(f.Message, g.what.Words(g.node))
				}
				if !found {
					t.Errorf("no LA208 on %s for %q", g.node, g.what)
				}
			}
		})
	}
}

// TestGapDoesNotHideUnsafe: a gap leaves an unsafe verdict unsafe (a known
// node that lacks the command breaks it whatever else there is).
func TestGapDoesNotHideUnsafe(t *testing.T) {
	const p, r = "10.0.0.1:6379", "10.0.0.2:6379"
	prim := probed(t, p, RolePrimary, "valkey-9.1.2")
	prim.Replicas = -1
	v, _ := verdictOf([]Facts{prim, replicaOf(probed(t, r, RoleReplica, "valkey-8.1.1"), p)}, EvalOptions{Topology: Replication})
	if got := words(v); got[0] != report.Unsafe || got[1] != unknown {
		t.Errorf("verdict %v, want release unsafe (the 8.1 replica) and extend unknown (the gap)", got)
	}
}
