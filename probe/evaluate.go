package probe

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// DefaultUses is the native lock path: DELIFEQ release, SET IFEQ extend.
var DefaultUses = []rules.Command{rules.UseDELIFEQ, rules.UseIFEQ}

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
// nodes, the node findings (sorted by node and rule), and the fleet the
// verdict is judged on (join.Verdict).
type Evaluation struct {
	Nodes    []report.Node
	Findings []report.Finding
	Fleet    join.Fleet
}

// Evaluate judges the nodes: the node rules LA201–LA210 (rules.go) and
// what the verdict needs. It reads nothing but its arguments.
func Evaluate(nodes []Facts, opt EvalOptions) Evaluation {
	if opt.Skew <= 0 {
		opt.Skew = DefaultSkew
	}
	findings := nodeFindings(nodes, opt)
	for _, g := range gaps(nodes, opt.Topology) {
		if g.own {
			findings = append(findings, finding("LA208", g.node, "%s — unknown: %s", g.what, neededFor[FactDiscovery]))
		}
	}
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].Node != findings[j].Node {
			return findings[i].Node < findings[j].Node
		}
		return findings[i].Rule < findings[j].Rule
	})
	return Evaluation{Nodes: Nodes(nodes, opt.Topology), Findings: findings, Fleet: Fleet(nodes, opt.Topology)}
}

// Run is the fleet half of a report: topology, nodes, node findings and the
// verdict for the commands relied on (uses; fromCode when they were derived
// from the code, see join.Verdict).
func (e Evaluation) Run(topology string, uses []report.Use, fromCode bool) *report.Run {
	return &report.Run{Topology: topology, Nodes: e.Nodes, Findings: e.Findings, Verdict: join.Verdict(e.Fleet, uses, fromCode)}
}

// Promotable decides whether a node can become primary: yes, no, manual
// (cluster-replica-no-failover: only a manual CLUSTER FAILOVER) or unknown,
// with the reason.
func Promotable(f Facts, topology string) (report.Promotable, string) {
	switch f.Role {
	case RoleSentinel:
		return report.PromotableNo, "a Sentinel holds no data"
	case RolePrimary:
		return report.PromotableYes, "it is a primary"
	case RoleReplica:
	default:
		if e, ok := f.failed(FactConnect); ok {
			return report.PromotableUnknown, "it could not be reached (" + e.Reason + ")"
		}
		return report.PromotableUnknown, "its role could not be read"
	}
	switch topology {
	case Sentinel:
		switch {
		case f.ReplicaPriority == 0:
			return report.PromotableNo, "replica-priority 0: Sentinel never promotes it"
		case f.ReplicaPriority > 0:
			return report.PromotableYes, "replica-priority " + strconv.Itoa(f.ReplicaPriority) + ": Sentinel can promote it"
		}
		return report.PromotableUnknown, "its replica-priority could not be read"
	case Cluster:
		switch f.NoFailover {
		case report.Yes:
			return report.PromotableManual, "cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"
		case report.No:
			return report.PromotableYes, "a cluster replica fails over automatically"
		}
		return report.PromotableUnknown, "whether it has cluster-replica-no-failover could not be read"
	}
	return report.PromotableYes, "a replica can be promoted (REPLICAOF NO ONE or a failover tool)"
}

// dataNodes are the nodes that hold data (not Sentinels).
func dataNodes(nodes []Facts) []Facts {
	var out []Facts
	for _, n := range nodes {
		if n.Role != RoleSentinel {
			out = append(out, n)
		}
	}
	return out
}

// evidenceFor says how a command's answer is known ("COMMAND INFO
// DELIFEQ: nil"; a declared node's is "declared valkey-9.1.2", set by
// Declared), or why it is not.
func evidenceFor(f Facts, c rules.Command) string {
	if w := f.Why[c]; w != "" {
		return w
	}
	if e, ok := f.failed(FactConnect); ok {
		return "not reachable: " + e.Reason
	}
	if len(f.Errors) > 0 {
		var parts []string
		for _, e := range f.Errors {
			parts = append(parts, e.String())
		}
		return strings.Join(parts, "; ")
	}
	return "not read"
}

func finding(id, node, format string, args ...any) report.Finding {
	r := rules.MustGet(id)
	return report.Finding{Rule: id, Severity: r.Severity, Node: node, Message: r.Title + ": " + fmt.Sprintf(format, args...)}
}
