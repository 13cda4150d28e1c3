// Package join judges the lock paths over a fleet and ties the verdict to
// the code. Its input is model types only — what each data node answers,
// whether it can become primary, what is not known about the fleet, and
// the commands relied on (with the code's sites when the code was
// analysed) — so a probed fleet, a declared one (preflight) and a saved one
// are judged by the same pure functions. It imports neither the analyzers
// nor the probe: they produce its input, the commands compose.
package join

import (
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Fleet is what a verdict needs to know about the servers.
type Fleet struct {
	// Nodes are the data nodes (not Sentinels), in report order.
	Nodes []Node
	// Gaps say why the nodes that can become primary are not all known
	// (a replica whose primary was not probed, a cluster whose members
	// could not be listed, ...); each makes every verdict unknown.
	Gaps []Gap
	// Topology decides the advice for a replica (replica-priority under
	// Sentinel, cluster-replica-no-failover in a cluster).
	Topology string
}

// Node is one data node.
type Node struct {
	Ref report.NodeRef
	// Version is the server release, zero when unknown; advice names the
	// release to upgrade to.
	Version    rules.Version
	Promotable report.Promotable
	Promotion  string // why it can (or cannot, or may) become primary
	// Answers holds the node's answer for each command, with how it is
	// known; a command absent from it is unknown.
	Answers map[rules.Command]Answer
	// Unsynced, on a replica, is the evidence that its replication link
	// is down ("" when it is up or unread): it gives every check a note.
	Unsynced string
}

// Answer is a node's answer for a command and its evidence.
type Answer struct {
	Answer   report.Answer
	Evidence string
}

// Gap is one reason the nodes that can become primary are not all known.
type Gap struct {
	Node string // the node it is about
	What string
}

// Verdict judges each lock path over the fleet for the commands relied on
// (uses): every command a path judges is one Check, and the path is the
// worst of its checks. fromCode says the uses were derived from the code
// (audit, preflight): a command absent from them is then not relied on, and
// a node that breaks a command the code sends gets advice. The verdict is
// never good without evidence: no data node, a node not known, or a gap
// makes it unknown.
func Verdict(f Fleet, uses []report.Use, fromCode bool) *report.Verdict {
	v := report.NewVerdict()
	v.FromCode = fromCode
	var relied []rules.Command
	sites := map[rules.Command][]report.Site{}
	for _, u := range uses {
		relied = append(relied, u.Command)
		sites[u.Command] = append(sites[u.Command], u.Sites...)
	}
	for i := range v.Paths {
		pv := &v.Paths[i]
		pv.Safe = report.Yes
		for _, c := range report.JudgedCommands(pv.Path, relied) {
			_, isRelied := sites[c]
			ch := check(f, c, isRelied, fromCode)
			if fromCode {
				ch.Sites = sites[c]
			}
			pv.Checks = append(pv.Checks, ch)
			pv.Safe = report.Worse(pv.Safe, ch.Safe())
		}
	}
	return v
}

// check weighs every data node for one command (report.NodeStanding) and
// adds the fleet's gaps.
func check(f Fleet, c rules.Command, relied, fromCode bool) report.Check {
	ch := report.Check{Command: c, ReliedOn: relied, Nodes: len(f.Nodes)}
	for _, n := range f.Nodes {
		a := n.Answers[c]
		kind, supported, weighed := report.NodeStanding(n.Promotable, a.Answer)
		switch {
		case !weighed:
		case supported:
			ch.Supported++
		default:
			r := report.Reason{Kind: kind, Node: n.Ref, Answer: a.Answer, Evidence: a.Evidence, Promotion: n.Promotion}
			if kind == report.Lacks && relied && fromCode {
				r.Advice = advice(n, c, f.Topology)
			}
			ch.Reasons = append(ch.Reasons, r)
		}
	}
	for _, n := range f.Nodes {
		if n.Unsynced != "" && n.Promotable != report.PromotableNo && n.Ref.Role == report.RoleReplica {
			ch.Reasons = append(ch.Reasons, report.Reason{Kind: report.Unsynced, Node: n.Ref, Answer: n.Answers[c].Answer, Evidence: n.Unsynced, Promotion: n.Promotion})
		}
	}
	for _, g := range f.Gaps {
		ch.Reasons = append(ch.Reasons, report.Reason{Kind: report.Gap, Node: report.NodeRef{Addr: g.Node}, Gap: g.What})
	}
	return ch
}

// before says when the fix must be done, for advice.
var before = map[rules.Path]string{
	rules.NativeRelease: "before releasing with ",
	rules.NativeExtend:  "before extending with ",
	rules.LuaScripts:    "before running the code's ",
}

// advice says what must change first so that the node stops breaking the
// code's use of c: what works on its release (the capability table's
// remedies: another command it has, an upgrade, a move, a Lua engine), or
// keeping failovers from promoting it.
func advice(n Node, c rules.Command, topology string) string {
	when := before[c.Path()] + c.Title()
	feature, versioned := c.Feature()
	if !versioned {
		feature = rules.Lua
	}
	who, from := n.Ref.Addr, n.Version.String()
	if n.Ref.Target != "" {
		who, from = "every "+n.Ref.Target+" node that can become primary", n.Ref.Target
	}
	fix := report.Remedy(who, from, n.Version, feature, when)
	if fix == "" {
		fix = "replace " + who + " with a server that has " + c.Title() + " " + when
	}
	if n.Ref.Role == report.RoleReplica {
		if topology == report.TopologyCluster {
			fix += ", or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)"
		} else {
			fix += ", or set its replica-priority 0 (Sentinel then never promotes it)"
		}
	}
	return fix
}

// Runs makes one Run of a code half and a fleet half (probed or declared):
// the code's findings, rules, packages and uses, the fleet's topology,
// nodes, node findings and verdict, and the errors of both, findings
// sorted. now stamps it.
func Runs(command string, code, fleet *report.Run, now time.Time) *report.Run {
	run := *code
	run.Command = command
	run.Time = now.UTC().Format(time.RFC3339)
	run.Findings = append(append([]report.Finding(nil), code.Findings...), fleet.Findings...)
	run.Errors = append(append([]report.Error(nil), code.Errors...), fleet.Errors...)
	run.Topology = fleet.Topology
	run.Nodes = fleet.Nodes
	run.Verdict = fleet.Verdict
	run.Sort()
	return &run
}
