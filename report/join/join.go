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
	Ref        report.NodeRef
	Promotable report.Promotable
	Promotion  report.Promotion // why it can (or cannot, or may) become primary
	// Answers holds the node's answer for each command, with how it is
	// known; a command absent from it is unknown.
	Answers map[rules.Command]Answer
	// Unsynced, on a replica, is its replication link when it is down
	// (zero when it is up or unread): it gives every check a note.
	Unsynced report.Link
}

// Answer is a node's answer for a command and its evidence.
type Answer struct {
	Answer   report.Answer
	Evidence report.AnswerSource
}

// Gap is one reason the nodes that can become primary are not all known.
type Gap struct {
	Node report.NodeRef // the node it is about
	What report.FleetGap
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
				r.Advice = advice(n, f.Topology)
			}
			ch.Reasons = append(ch.Reasons, r)
		}
	}
	for _, n := range f.Nodes {
		if n.Unsynced.Status != "" && n.Promotable != report.PromotableNo && n.Ref.Role == report.RoleReplica {
			ev := report.AnswerSource{Kind: report.SourceLinkDown, Link: n.Unsynced}
			ch.Reasons = append(ch.Reasons, report.Reason{Kind: report.Unsynced, Node: n.Ref, Answer: n.Answers[c].Answer, Evidence: ev, Promotion: n.Promotion})
		}
	}
	for _, g := range f.Gaps {
		ch.Reasons = append(ch.Reasons, report.Reason{Kind: report.Gap, Node: g.Node, Gap: g.What})
	}
	return ch
}

// advice says what must change first so that the node stops breaking the
// code's use of a command (report.AdviceKind words it): what works on its
// release, or, for a replica, keeping failovers from promoting it.
func advice(n Node, topology string) report.AdviceKind {
	switch {
	case n.Ref.Role != report.RoleReplica:
		return report.AdviseRemedy
	case topology == report.TopologyCluster:
		return report.AdviseRemedyOrNoFailover
	}
	return report.AdviseRemedyOrPriority
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
