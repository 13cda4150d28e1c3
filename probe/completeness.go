package probe

import (
	"slices"

	"github.com/lockaudit/lockaudit/report"
)

// Every verdict speaks of every node that can become primary, so it needs
// that set complete: a node nobody listed can be promoted all the same.
// gaps says why the set is not known completely, from the facts alone:
//
//	a node's role, or its replicas, could not be read (ROLE, INFO replication)
//	a replica's primary is unknown, or was not probed
//	replicas that replicate each other in a cycle, or no primary at all
//	a cluster whose member list no node could give (CLUSTER NODES/SHARDS)
//	nodes past the probe's node limit (MaxNodes)
//
// A node that could not be reached needs no gap: its answers are unknown,
// which already keeps every verdict from being good. A declared fleet
// (preflight) is complete by declaration as to what was read, but not as
// to its shape: replicas declared to replicate each other in a cycle leave
// the primary unknown there too.

// gap is one reason the nodes that can become primary are not all known.
type gap struct {
	node report.NodeRef // the node it is about
	what report.FleetGap
	// own: no error of the node says it, so it needs its own LA208.
	own bool
}

func gaps(nodes []judged, topology string) []gap {
	var data []judged
	byAddr := map[string]Facts{}
	view := false
	for _, n := range nodes {
		if n.Role == RoleSentinel {
			continue
		}
		data = append(data, n)
		byAddr[n.Addr] = n.Facts
		view = view || n.ClusterView
	}
	var out []gap
	if !view {
		for _, n := range data {
			if errs := n.errorsOf(FactCluster); len(errs) > 0 {
				out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapMembersUnlisted, Errors: errs}})
			}
		}
	}
	inCycle := map[string]bool{}
	primaries, rolesKnown := 0, true
	for _, n := range data {
		if n.Declared {
			out = append(out, declaredCycle(byAddr, n.Facts, inCycle)...)
			continue
		}
		if e, ok := n.failed(FactDiscovery); ok {
			out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapDiscoveryFailed, Errors: []string{e.Reason}}})
		}
		switch n.Role {
		case RolePrimary:
			primaries++
		case RoleReplica:
		default:
			rolesKnown = false
		}
		if !n.reached() {
			continue
		}
		if n.promotable == report.PromotableNo {
			continue // nor can its replicas be promoted through it
		}
		switch {
		case n.Role != RolePrimary && n.Role != RoleReplica:
			out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapRoleUnread, Errors: n.errorsOf(FactServer, FactRole, FactReplication)}})
			continue
		case topology != Cluster && n.Replicas < 0:
			// In a cluster the member list names every replica.
			out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapReplicasUnlisted, Errors: n.errorsOf(FactReplication, FactRole)}})
		}
		if n.Role != RoleReplica || inCycle[n.Addr] {
			continue
		}
		if n.Primary == "" {
			out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapPrimaryUnknown, Errors: n.errorsOf(FactRole, FactReplication)}})
			continue
		}
		top, _, outside := chainTop(byAddr, n.Facts)
		switch {
		case outside != "":
			out = append(out, gap{node: n.ref(), what: report.FleetGap{Kind: report.GapPrimaryNotProbed, Primary: outside}, own: true})
		case top.Role == RoleReplica:
			out = append(out, cycleGap(byAddr, top, inCycle)...)
		}
	}
	if primaries == 0 && rolesKnown && len(inCycle) == 0 && len(data) > 0 && !data[0].Declared {
		var addrs []string
		for _, n := range data {
			addrs = append(addrs, n.Addr)
		}
		slices.Sort(addrs)
		out = append(out, gap{node: report.NodeRef{Addr: addrs[0]}, what: report.FleetGap{Kind: report.GapNoPrimary, Nodes: addrs}, own: true})
	}
	return out
}

// cycleGap is the gap of the replication cycle that top (a replica at the
// top of its chain) is in, unless inCycle already has it; it marks the
// cycle's replicas in inCycle.
func cycleGap(byAddr map[string]Facts, top Facts, inCycle map[string]bool) []gap {
	cycle := replicaCycle(byAddr, top)
	if inCycle[cycle[0]] {
		return nil // a replica of the cycle, already reported
	}
	for _, a := range cycle {
		inCycle[a] = true
	}
	return []gap{{node: report.NodeRef{Addr: cycle[0]}, what: report.FleetGap{Kind: report.GapCycle, Nodes: cycle}, own: true}}
}

// declaredCycle is the gap of a declared replica whose chain of declared
// primaries loops.
func declaredCycle(byAddr map[string]Facts, n Facts, inCycle map[string]bool) []gap {
	if n.Role != RoleReplica || n.Primary == "" || inCycle[n.Addr] {
		return nil
	}
	if top, _, outside := chainTop(byAddr, n); outside == "" && top.Role == RoleReplica && top.Primary != "" {
		return cycleGap(byAddr, top, inCycle)
	}
	return nil
}

// replicaCycle lists the replicas of the cycle that start reaches,
// starting with the smallest address.
func replicaCycle(byAddr map[string]Facts, start Facts) []string {
	var cycle []string
	seen := map[string]bool{}
	for f := start; !seen[f.Addr]; {
		seen[f.Addr] = true
		cycle = append(cycle, f.Addr)
		next, ok := byAddr[f.Primary]
		if !ok {
			break
		}
		f = next
	}
	i := slices.Index(cycle, slices.Min(cycle))
	return append(cycle[i:], cycle[:i]...)
}

// errorsOf lists the node's errors for the facts ("ROLE: NOPERM ...").
func (f Facts) errorsOf(facts ...Fact) []string {
	var out []string
	for _, e := range f.Errors {
		if slices.Contains(facts, e.Fact) {
			out = append(out, e.String())
		}
	}
	return out
}

// errorList lists every error of the node.
func (f Facts) errorList() []string {
	var out []string
	for _, e := range f.Errors {
		out = append(out, e.String())
	}
	return out
}
