package probe

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Commands the code can rely on (-uses).
const (
	UseDELIFEQ = "delifeq"
	UseDELEX   = "delex"
	UseIFEQ    = "ifeq"
	UseLua     = "lua"
)

// DefaultUses is the native lock path: DELIFEQ release, SET IFEQ extend.
var DefaultUses = []string{UseDELIFEQ, UseIFEQ}

// DefaultSkew is the LA207 threshold.
const DefaultSkew = 50 * time.Millisecond

// ParseUses parses a -uses value such as "delifeq,ifeq,lua".
func ParseUses(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, u := range strings.Split(s, ",") {
		u = strings.ToLower(strings.TrimSpace(u))
		switch u {
		case UseDELIFEQ, UseDELEX, UseIFEQ, UseLua:
		case "":
			continue
		default:
			return nil, fmt.Errorf("unknown -uses value %q (want a comma-separated list of delifeq, delex, ifeq, lua)", u)
		}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-uses is empty (want a comma-separated list of delifeq, delex, ifeq, lua)")
	}
	return out, nil
}

// EvalOptions are the inputs of the verdict besides the facts.
type EvalOptions struct {
	Uses     []string      // what the code relies on; nil means DefaultUses
	Skew     time.Duration // LA207 threshold; 0 means DefaultSkew
	Topology string        // Standalone, Replication, Sentinel, Cluster or DeclaredTop
}

func (o EvalOptions) uses(u string) bool {
	uses := o.Uses
	if uses == nil {
		uses = DefaultUses
	}
	for _, x := range uses {
		if x == u {
			return true
		}
	}
	return false
}

// releaseCommands are the release commands the verdict judges: those the
// code uses, or DELIFEQ when it uses neither.
func (o EvalOptions) releaseCommands() []rules.Feature {
	var out []rules.Feature
	if o.uses(UseDELIFEQ) {
		out = append(out, rules.DELIFEQ)
	}
	if o.uses(UseDELEX) {
		out = append(out, rules.DELEX)
	}
	if len(out) == 0 {
		out = []rules.Feature{rules.DELIFEQ}
	}
	return out
}

// Promotable decides whether a node can become primary: report.Yes, No,
// Manual (cluster-replica-no-failover: only a manual CLUSTER FAILOVER) or
// Unknown, with the reason.
func Promotable(f Facts, topology string) (string, string) {
	switch f.Role {
	case RoleSentinel:
		return report.No, "a Sentinel holds no data"
	case RolePrimary:
		return report.Yes, "it is a primary"
	case RoleReplica:
	default:
		if e, ok := f.failed(FactConnect); ok {
			return report.Unknown, "it could not be reached (" + e.Reason + ")"
		}
		return report.Unknown, "its role could not be read"
	}
	switch topology {
	case Sentinel:
		switch {
		case f.ReplicaPriority == 0:
			return report.No, "replica-priority 0: Sentinel never promotes it"
		case f.ReplicaPriority > 0:
			return report.Yes, "replica-priority " + strconv.Itoa(f.ReplicaPriority) + ": Sentinel can promote it"
		}
		return report.Unknown, "its replica-priority could not be read"
	case Cluster:
		switch f.NoFailover {
		case report.Yes:
			return report.Manual, "cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"
		case report.No:
			return report.Yes, "a cluster replica fails over automatically"
		}
		return report.Unknown, "whether it has cluster-replica-no-failover could not be read"
	}
	return report.Yes, "a replica can be promoted (REPLICAOF NO ONE or a failover tool)"
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

// judge is one verdict over the promotable nodes: every node either has the
// feature, lacks it (unsafe when it is promotable), or leaves it unknown.
type judge struct {
	name      string                       // native_release
	feature   string                       // "DELIFEQ", for messages
	answer    func(Facts) (string, string) // yes/no/unknown and how it is known
	good, bad string                       // verdict words: safe/unsafe, available/missing
	unsafe    []string
	unknown   []string
	manual    []string
	okCount   int
}

func (j *judge) add(n Facts, topology string) {
	p, pwhy := Promotable(n, topology)
	a, awhy := j.answer(n)
	if p == report.No {
		return
	}
	switch {
	case a == report.Yes:
		j.okCount++
	case a == report.No && p == report.Yes:
		j.unsafe = append(j.unsafe, fmt.Sprintf("%s has no %s (%s)", n.describe("promotable"), j.feature, awhy))
	case p == report.Manual:
		word := "has no"
		if a != report.No {
			word = "may lack"
		}
		j.manual = append(j.manual, fmt.Sprintf("%s %s %s; %s", n.describe(), word, j.feature, pwhy))
	case a == report.No: // promotability unknown
		j.unknown = append(j.unknown, fmt.Sprintf("%s has no %s and %s", n.describe(), j.feature, pwhy))
	default:
		j.unknown = append(j.unknown, fmt.Sprintf("%s: %s unknown (%s)", n.describe(), j.feature, awhy))
	}
}

func (j *judge) verdict(nodes int) (string, []string) {
	var reasons []string
	state := j.good
	switch {
	case len(j.unsafe) > 0:
		state = j.bad
		for _, s := range j.unsafe {
			reasons = append(reasons, fmt.Sprintf("%s: %s — %s", j.name, state, s))
		}
	case len(j.unknown) > 0 || nodes == 0:
		state = report.Unknown
	}
	for _, s := range j.unknown {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s", j.name, s))
	}
	if nodes == 0 {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — no data node was found", j.name))
	}
	for _, s := range j.manual {
		reasons = append(reasons, fmt.Sprintf("%s: note — %s", j.name, s))
	}
	if state == j.good {
		reasons = append([]string{fmt.Sprintf("%s: %s — every node that can become primary (%d) has %s", j.name, state, j.okCount, j.feature)}, reasons...)
	}
	return state, reasons
}

// Evaluate judges the nodes: the verdict (never safe without evidence) and
// the node findings LA201–LA210, sorted by node and rule.
func Evaluate(nodes []Facts, opt EvalOptions) (report.Verdict, []report.Finding) {
	data := dataNodes(nodes)
	var v report.Verdict

	var rel []*judge
	for _, feat := range opt.releaseCommands() {
		rel = append(rel, &judge{name: "native_release", feature: string(feat), good: report.Safe, bad: report.Unsafe,
			answer: func(f Facts) (string, string) { return releaseAnswer(f, feat) }})
	}
	ext := &judge{name: "native_extend", feature: "SET IFEQ", good: report.Safe, bad: report.Unsafe,
		answer: func(f Facts) (string, string) { return f.SetIFEQ, evidenceFor(f, WhySetIFEQ) }}
	lua := &judge{name: "lua", feature: "Lua", good: report.Available, bad: report.Missing,
		answer: func(f Facts) (string, string) { return f.Lua, evidenceFor(f, WhyLua) }}
	for _, n := range data {
		for _, j := range rel {
			j.add(n, opt.Topology)
		}
		ext.add(n, opt.Topology)
		lua.add(n, opt.Topology)
	}
	v.NativeRelease = report.Safe
	for _, j := range rel {
		state, reasons := j.verdict(len(data))
		v.NativeRelease = worse(v.NativeRelease, state)
		v.Reasons = append(v.Reasons, reasons...)
	}
	var reasons []string
	v.NativeExtend, reasons = ext.verdict(len(data))
	v.Reasons = append(v.Reasons, reasons...)
	v.Lua, reasons = lua.verdict(len(data))
	v.Reasons = append(v.Reasons, reasons...)

	findings := nodeFindings(nodes, opt)
	sort.SliceStable(findings, func(i, j int) bool {
		if findings[i].Node != findings[j].Node {
			return findings[i].Node < findings[j].Node
		}
		return findings[i].Rule < findings[j].Rule
	})
	return v, findings
}

// worse combines two release verdicts: unsafe beats unknown beats safe.
func worse(a, b string) string {
	rank := map[string]int{report.Safe: 0, report.Unknown: 1, report.Unsafe: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// releaseAnswer is a node's answer for one release command.
func releaseAnswer(f Facts, feat rules.Feature) (string, string) {
	if feat == rules.DELEX {
		return f.DELEX, evidenceFor(f, WhyDELEX)
	}
	return f.DELIFEQ, evidenceFor(f, WhyDELIFEQ)
}

// evidenceFor says how an answer is known ("COMMAND INFO DELIFEQ: nil"),
// or why it is not.
func evidenceFor(f Facts, key string) string {
	if w := f.Why[key]; w != "" {
		return w
	}
	if f.Declared {
		return "declared " + f.Version.String()
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

// nodeFindings applies LA201–LA210 to each node.
func nodeFindings(nodes []Facts, opt EvalOptions) []report.Finding {
	var out []report.Finding
	skew := opt.Skew
	if skew <= 0 {
		skew = DefaultSkew
	}
	for _, n := range nodes {
		p, pwhy := Promotable(n, opt.Topology)

		// LA208: everything that could not be read.
		for _, e := range n.Errors {
			out = append(out, finding("LA208", n.Addr, "%s: %s — unknown: %s", e.Fact, e.Reason, neededFor[e.Fact]))
		}
		if n.Role == RoleSentinel || !n.reached() {
			continue
		}
		if p == report.Yes {
			if opt.uses(UseDELIFEQ) && n.DELIFEQ == report.No {
				out = append(out, finding("LA201", n.Addr, "%s has no DELIFEQ (%s); %s; DELIFEQ needs %s",
					n.describe("promotable"), evidenceFor(n, WhyDELIFEQ), pwhy, rules.Requirement(rules.DELIFEQ)))
			}
			if opt.uses(UseDELEX) && n.DELEX == report.No {
				out = append(out, finding("LA201", n.Addr, "%s has no DELEX (%s); %s; DELEX needs %s",
					n.describe("promotable"), evidenceFor(n, WhyDELEX), pwhy, rules.Requirement(rules.DELEX)))
			}
			if opt.uses(UseIFEQ) && n.SetIFEQ == report.No {
				out = append(out, finding("LA202", n.Addr, "%s has no SET IFEQ (%s); %s; SET IFEQ needs %s",
					n.describe("promotable"), evidenceFor(n, WhySetIFEQ), pwhy, rules.Requirement(rules.SetIFEQ)))
			}
			if opt.uses(UseLua) && n.Lua == report.No {
				out = append(out, finding("LA203", n.Addr, "%s cannot run Lua (%s); %s",
					n.describe("promotable"), evidenceFor(n, WhyLua), pwhy))
			}
		}
		if n.Role == RolePrimary && n.Replicas > 0 && n.Config["min-replicas-to-write"] == "0" {
			out = append(out, finding("LA204", n.Addr, "min-replicas-to-write 0 on a primary with %d replica(s)", n.Replicas))
		}
		if p != report.No {
			if ao, af := n.Config["appendonly"], n.Config["appendfsync"]; ao == "no" || (ao == "yes" && af != "" && af != "always") {
				what := "appendonly no"
				if ao == "yes" {
					what = "appendonly yes, appendfsync " + af
				}
				out = append(out, finding("LA205", n.Addr, "%s", what))
			}
			if mm, pol := n.Config["maxmemory"], n.Config["maxmemory-policy"]; mm != "" && mm != "0" && pol != "" && pol != "noeviction" {
				what := "maxmemory " + mm + ", maxmemory-policy " + pol
				if strings.HasPrefix(pol, "volatile-") {
					what += " (evicts exactly the keys with a TTL: every lock)"
				}
				out = append(out, finding("LA206", n.Addr, "%s", what))
			}
		}
		if n.Hidden && p != report.No {
			out = append(out, finding("LA209", n.Addr, "replica-announced no hides %s from SENTINEL REPLICAS; its primary %s lists it and %s",
				n.Addr, n.Primary, pwhy))
		}
		if n.Version.Flavor == rules.Redis {
			out = append(out, finding("LA210", n.Addr, "%s runs %s; DELIFEQ: %s; DELEX: %s; SET IFEQ: %s",
				n.Addr, serverName(n.Version), rules.Requirement(rules.DELIFEQ), rules.Requirement(rules.DELEX), rules.Requirement(rules.SetIFEQ)))
		}
	}
	return append(out, skewFindings(nodes, opt.Topology, skew)...)
}

// skewFindings is LA207: within each replication group (a primary and the
// replicas below it), a promotable replica whose clock differs from its
// primary's by more than the threshold.
func skewFindings(nodes []Facts, topology string, threshold time.Duration) []report.Finding {
	byAddr := map[string]Facts{}
	for _, n := range nodes {
		byAddr[n.Addr] = n
	}
	root := func(n Facts) (Facts, bool) {
		seen := map[string]bool{}
		for n.Role == RoleReplica && n.Primary != "" && !seen[n.Addr] {
			seen[n.Addr] = true
			p, ok := byAddr[n.Primary]
			if !ok {
				return Facts{}, false
			}
			n = p
		}
		return n, n.Role == RolePrimary
	}
	var out []report.Finding
	for _, n := range nodes {
		if n.Role != RoleReplica || n.Clock == nil {
			continue
		}
		if p, _ := Promotable(n, topology); p == report.No {
			continue
		}
		prim, ok := root(n)
		if !ok || prim.Clock == nil {
			continue
		}
		d := n.Clock.Offset - prim.Clock.Offset
		if d.Abs() <= threshold {
			continue
		}
		dir := "ahead of"
		if d < 0 {
			dir = "behind"
		}
		out = append(out, finding("LA207", n.Addr, "clock %s %s primary %s (threshold %s; round trips %s and %s, half taken off)",
			d.Abs().Round(time.Millisecond), dir, prim.Addr, threshold, n.Clock.RTT.Round(time.Microsecond), prim.Clock.RTT.Round(time.Microsecond)))
	}
	return out
}
