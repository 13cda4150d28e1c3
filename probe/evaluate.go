package probe

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// DefaultSkew is the LA207 threshold.
const DefaultSkew = 50 * time.Millisecond

// EvalOptions are the inputs of the evaluation besides the facts.
type EvalOptions struct {
	// Relied are the commands relied on (LA201–LA203 report a node that
	// can become primary and lacks one); nil relies on none.
	Relied   []rules.Command
	Skew     time.Duration // LA207 threshold; 0 means DefaultSkew
	Topology string        // Standalone, Replication, Sentinel, Cluster or DeclaredTop
}

// Evaluation is what the pure half makes of the facts: the report's
// nodes, the node findings (sorted by node and rule), the fleet the
// verdict is judged on (join.Verdict, with the gaps that say the nodes
// that can become primary are not all known), and the release the code
// is to be judged at (Target).
type Evaluation struct {
	Nodes    []report.Node
	Findings []report.Finding
	Fleet    join.Fleet
	Target   Target
}

// Complete reports whether every node that can become primary is known:
// no gap (completeness.go). Scan and conform, which read each member, are
// incomplete exactly when the probe's verdict would be unknown for it.
func (e Evaluation) Complete() bool { return len(e.Fleet.Gaps) == 0 }

// Evaluate judges the nodes: each node once (judge: its answers and
// whether it can become primary), then the node rules LA201–LA214
// (noderules.go), the fleet's completeness (completeness.go), the report's
// nodes and what the verdict needs, all from those judged nodes. It reads
// nothing but its arguments.
func Evaluate(nodes []Facts, opt EvalOptions) Evaluation {
	if opt.Skew <= 0 {
		opt.Skew = DefaultSkew
	}
	js := judge(nodes, opt.Topology)
	findings := nodeFindings(js, opt)
	gs := gaps(js, opt.Topology)
	for _, g := range gs {
		if g.own {
			f := finding(rules.LA208, g.node.Addr, "%s — unknown: %s", g.what.Words(g.node), neededFor[FactDiscovery])
			f.Subject = string(FactDiscovery)
			findings = append(findings, f)
		}
	}
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].Node != findings[j].Node {
			return findings[i].Node < findings[j].Node
		}
		return findings[i].Rule < findings[j].Rule
	})
	return Evaluation{Nodes: reportNodes(js), Findings: findings, Fleet: fleetOf(js, gs, opt.Topology), Target: targetOf(js)}
}

// judged is one node as the evaluation decides it, once: its facts, its
// answers (decide) and whether it can become primary (Promotable), with
// why. Every output of Evaluate is made from judged nodes.
type judged struct {
	Facts
	answers    answers
	promotable report.Promotable
	promotion  report.Promotion
}

// judge decides every node once.
func judge(nodes []Facts, topology string) []judged {
	out := make([]judged, len(nodes))
	for i, f := range nodes {
		j := judged{Facts: f, answers: decide(f)}
		j.promotable, j.promotion = Promotable(f, topology)
		out[i] = j
	}
	return out
}

// Run is the fleet half of a report: topology, nodes, node findings and the
// verdict for the commands relied on (uses; fromCode when they were derived
// from the code, see join.Verdict).
func (e Evaluation) Run(topology string, uses []report.Use, fromCode bool) *report.Run {
	return &report.Run{Topology: topology, Nodes: e.Nodes, Findings: e.Findings, Verdict: join.Verdict(e.Fleet, uses, fromCode)}
}

// Answer is the node's answer for a command, and how it is known (or why
// it is not).
func (j judged) Answer(c rules.Command) (report.Answer, report.AnswerSource) {
	a := j.answers[c]
	if a.why.Kind == 0 {
		a.why = unknownWhy(j.Facts)
	}
	return a.answer, a.why
}

// Promotable decides whether a node can become primary: yes, no, manual
// (cluster-replica-no-failover: only a manual CLUSTER FAILOVER) or unknown,
// with the reason.
func Promotable(f Facts, topology string) (report.Promotable, report.Promotion) {
	why := func(k report.PromotionKind) report.Promotion { return report.Promotion{Kind: k} }
	switch f.Role {
	case RoleSentinel:
		return report.PromotableNo, why(report.PromotionSentinel)
	case RolePrimary:
		return report.PromotableYes, why(report.PromotionPrimary)
	case RoleReplica:
	default:
		if e, ok := f.failed(FactConnect); ok {
			return report.PromotableUnknown, report.Promotion{Kind: report.PromotionUnreached, Error: e.Reason}
		}
		return report.PromotableUnknown, why(report.PromotionRoleUnread)
	}
	switch topology {
	case Sentinel:
		switch {
		case f.ReplicaPriority == 0:
			return report.PromotableNo, why(report.PromotionPriorityZero)
		case f.ReplicaPriority > 0:
			return report.PromotableYes, report.Promotion{Kind: report.PromotionPriority, Priority: f.ReplicaPriority}
		}
		return report.PromotableUnknown, why(report.PromotionPriorityUnread)
	case Cluster:
		switch f.NoFailover {
		case report.Yes:
			return report.PromotableManual, why(report.PromotionNoFailover)
		case report.No:
			return report.PromotableYes, why(report.PromotionClusterReplica)
		}
		return report.PromotableUnknown, why(report.PromotionNoFailoverUnread)
	}
	return report.PromotableYes, why(report.PromotionReplica)
}

// unknownWhy says why nothing is known of a node's answers: it was not
// reached, or what could not be read on it.
func unknownWhy(f Facts) report.AnswerSource {
	if e, ok := f.failed(FactConnect); ok {
		return report.AnswerSource{Kind: report.SourceUnreachable, Error: e.Reason}
	}
	if len(f.Errors) > 0 {
		return report.AnswerSource{Kind: report.SourceReadErrors, Errors: f.errorList()}
	}
	return report.AnswerSource{Kind: report.SourceNotRead}
}

func finding(id rules.ID, node, format string, args ...any) report.Finding {
	r := rules.MustGet(id)
	return report.Finding{Rule: id, Severity: r.Severity, Node: node, Message: r.Title + ": " + fmt.Sprintf(format, args...)}
}
