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

	// Code, when CodeKnown is set (audit, preflight), is what the code
	// relies on with the places it does, as analyzers/uses found it: the
	// uses are then Code's commands (none when Code is empty; Uses is
	// ignored), and each reason ties its verdict to the code — which line
	// sends the command, which node breaks it and what to change first — or
	// says that the code does not rely on it.
	Code      []report.Use
	CodeKnown bool
}

func (o EvalOptions) uses(u string) bool {
	if o.CodeKnown {
		for _, x := range o.Code {
			if x.Command == u {
				return true
			}
		}
		return false
	}
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

// sites returns the code's sites for a command.
func (o EvalOptions) sites(u string) []report.Site {
	for _, x := range o.Code {
		if x.Command == u {
			return x.Sites
		}
	}
	return nil
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
	unsafe    []entry
	unknown   []entry
	manual    []entry
	okCount   int

	// code is set when the code's uses are known (EvalOptions.CodeKnown).
	code *codeUse
}

// entry is one node that keeps a verdict from being good.
type entry struct {
	n          Facts
	answer     string // the node's answer for the feature
	awhy, pwhy string // how the answer and the promotability are known
}

// codeUse says how the code relies on a judge's feature, for reasons.
type codeUse struct {
	relied bool
	does   string // "the code releases with DELIFEQ (billing/billing.go:56)"
	doesNt string // "the code does not release with DELIFEQ or DELEX"
	before string // "before releasing with DELIFEQ", for advice
	lua    bool   // advice for a missing Lua engine
}

func (j *judge) add(n Facts, topology string) {
	p, pwhy := Promotable(n, topology)
	a, awhy := j.answer(n)
	if p == report.No {
		return
	}
	e := entry{n: n, answer: a, awhy: awhy, pwhy: pwhy}
	switch {
	case a == report.Yes:
		j.okCount++
	case a == report.No && p == report.Yes:
		j.unsafe = append(j.unsafe, e)
	case p == report.Manual:
		j.manual = append(j.manual, e)
	default: // the answer or the promotability is unknown
		j.unknown = append(j.unknown, e)
	}
}

// fleetText says what an entry means for the fleet alone (the probe's
// reasons, also quoted by the joined ones).
func (j *judge) fleetText(e entry, kind string) string {
	n := e.n
	switch kind {
	case "unsafe":
		return fmt.Sprintf("%s has no %s (%s)", n.describe("promotable"), j.feature, e.awhy)
	case "manual":
		word := "has no"
		if e.answer != report.No {
			word = "may lack"
		}
		return fmt.Sprintf("%s %s %s; %s", n.describe(), word, j.feature, e.pwhy)
	}
	if e.answer == report.No { // promotability unknown
		return fmt.Sprintf("%s has no %s and %s", n.describe(), j.feature, e.pwhy)
	}
	return fmt.Sprintf("%s: %s unknown (%s)", n.describe(), j.feature, e.awhy)
}

func (j *judge) verdict(nodes int, topology string, gs []gap) (string, []string) {
	state := j.good
	switch {
	case len(j.unsafe) > 0:
		state = j.bad
	case len(j.unknown) > 0 || nodes == 0 || len(gs) > 0:
		state = report.Unknown
	}
	if j.code != nil {
		return state, j.joinedReasons(state, nodes, topology, gs)
	}
	var reasons []string
	for _, e := range j.unsafe {
		reasons = append(reasons, fmt.Sprintf("%s: %s — %s", j.name, state, j.fleetText(e, "unsafe")))
	}
	for _, e := range j.unknown {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s", j.name, j.fleetText(e, "unknown")))
	}
	for _, g := range gs {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s: %s", j.name, notAllKnown, g.what))
	}
	if nodes == 0 {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — no data node was found", j.name))
	}
	for _, e := range j.manual {
		reasons = append(reasons, fmt.Sprintf("%s: note — %s", j.name, j.fleetText(e, "manual")))
	}
	if state == j.good {
		reasons = append([]string{fmt.Sprintf("%s: %s — every node that can become primary (%d) has %s", j.name, state, j.okCount, j.feature)}, reasons...)
	}
	return state, reasons
}

// joinedReasons words the verdict for audit and preflight: what the code
// does and where, which node breaks it, and what to change first; or that
// the code does not rely on the feature, with the fleet's state for the
// record.
func (j *judge) joinedReasons(state string, nodes int, topology string, gs []gap) []string {
	c := j.code
	allGood := fmt.Sprintf("every node that can become primary (%d) has %s", j.okCount, j.feature)
	if !c.relied {
		var facts []string
		for _, e := range j.unsafe {
			facts = append(facts, j.fleetText(e, "unsafe"))
		}
		for _, e := range j.unknown {
			facts = append(facts, j.fleetText(e, "unknown"))
		}
		for _, e := range j.manual {
			facts = append(facts, j.fleetText(e, "manual"))
		}
		if nodes == 0 {
			facts = append(facts, "no data node was found")
		}
		for _, g := range gs {
			facts = append(facts, notAllKnown+": "+g.what)
		}
		if len(facts) == 0 {
			facts = append(facts, allGood)
		}
		return []string{fmt.Sprintf("%s: not relied on — %s, so this verdict does not affect it (%s)", j.name, c.doesNt, strings.Join(facts, "; "))}
	}
	var reasons []string
	for _, e := range j.unsafe {
		reasons = append(reasons, fmt.Sprintf("%s: %s — %s but %s; %s", j.name, state, c.does, j.brokenBy(e), j.advice(e.n, topology)))
	}
	for _, e := range j.unknown {
		what := fmt.Sprintf("%s is unknown on %s (%s)", j.feature, e.n.describe(), e.awhy)
		if e.answer == report.No {
			what = j.fleetText(e, "unknown")
		}
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s but %s; restore what LA208 reports for %s and run again (unknown is not safe)", j.name, c.does, what, e.n.Addr))
	}
	if nodes == 0 {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s but no data node was found", j.name, c.does))
	}
	for _, g := range gs {
		reasons = append(reasons, fmt.Sprintf("%s: unknown — %s but %s: %s; restore what LA208 reports for %s and run again (unknown is not safe)", j.name, c.does, notAllKnown, g.what, g.node))
	}
	for _, e := range j.manual {
		reasons = append(reasons, fmt.Sprintf("%s: note — %s; %s", j.name, c.does, j.fleetText(e, "manual")))
	}
	if state == j.good {
		reasons = append([]string{fmt.Sprintf("%s: %s — %s and %s", j.name, state, c.does, allGood)}, reasons...)
	}
	return reasons
}

// brokenBy names the node that breaks the code's use of the feature.
func (j *judge) brokenBy(e entry) string {
	if j.code.lua {
		return fmt.Sprintf("%s cannot run Lua (%s)", e.n.describe("promotable"), e.awhy)
	}
	return fmt.Sprintf("%s has no %s (%s)", e.n.describe("promotable"), j.feature, e.awhy)
}

// advice says what must change first so that the node stops breaking the
// code: upgrade it (or give it a Lua engine), or keep failovers from
// promoting it.
func (j *judge) advice(n Facts, topology string) string {
	var fix string
	switch {
	case n.Target != "" && !j.code.lua:
		return fmt.Sprintf("upgrade every %s node that can become primary to a release with %s (%s) %s", n.Target, j.feature, rules.Requirement(rules.Feature(j.feature)), j.code.before)
	case j.code.lua:
		fix = "give " + n.Addr + " a Lua engine (load the Lua module; EVAL must not be renamed away) " + j.code.before + ", or move those lock steps to the native commands (DELIFEQ release, SET IFEQ PX extend)"
	case n.Version.IsZero():
		fix = fmt.Sprintf("upgrade %s to a server with %s (%s) %s", n.Addr, j.feature, rules.Requirement(rules.Feature(j.feature)), j.code.before)
	default:
		if min, ok := rules.Since(rules.Feature(j.feature), n.Version.Flavor); ok {
			fix = fmt.Sprintf("upgrade %s from %s to %s %d.%d+ %s", n.Addr, n.Version, n.Version.Flavor.Title(), min.Major, min.Minor, j.code.before)
		} else {
			fix = fmt.Sprintf("no %s version has %s: replace %s with a server that has it (%s) %s", n.Version.Flavor.Title(), j.feature, n.Addr, rules.Requirement(rules.Feature(j.feature)), j.code.before)
		}
	}
	if n.Role == RoleReplica {
		if topology == Cluster {
			fix += ", or set its cluster-replica-no-failover yes (then only a manual CLUSTER FAILOVER promotes it)"
		} else {
			fix += ", or set its replica-priority 0 (Sentinel then never promotes it)"
		}
	}
	return fix
}

// notAllKnown opens the reason a gap gives.
const notAllKnown = "not every node that can become primary is known"

// codeUses words, for each judge, how the code relies on its feature.
func codeUses(opt EvalOptions, feature string) *codeUse {
	if !opt.CodeKnown {
		return nil
	}
	switch feature {
	case string(rules.DELIFEQ), string(rules.DELEX):
		use := strings.ToLower(feature)
		c := &codeUse{relied: opt.uses(use), before: "before releasing with " + feature,
			doesNt: "the code does not release with DELIFEQ or DELEX"}
		c.does = "the code releases with " + feature + siteList(opt.sites(use), false)
		return c
	case "SET IFEQ":
		return &codeUse{relied: opt.uses(UseIFEQ), before: "before extending with SET IFEQ",
			does:   "the code extends with SET IFEQ" + siteList(opt.sites(UseIFEQ), false),
			doesNt: "the code does not extend with SET IFEQ"}
	}
	return &codeUse{relied: opt.uses(UseLua), lua: true, before: "before running the code's Lua",
		does:   "the code runs Lua" + siteList(opt.sites(UseLua), true),
		doesNt: "the code runs no Lua"}
}

// maxSites is how many places a reason names before "and N more".
const maxSites = 2

// siteList writes " (billing/billing.go:56, checkout/checkout.go:65 and 3
// more)"; with what, each place is followed by what it does there.
func siteList(sites []report.Site, what bool) string {
	if len(sites) == 0 {
		return ""
	}
	var parts []string
	for i, s := range sites {
		if i == maxSites {
			break
		}
		p := fmt.Sprintf("%s:%d", s.Pos.File, s.Pos.Line)
		if what && s.What != "" {
			p += ": " + s.What
		}
		parts = append(parts, p)
	}
	list := strings.Join(parts, ", ")
	if more := len(sites) - maxSites; more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return " (" + list + ")"
}

// Evaluate judges the nodes: the verdict (never safe without evidence) and
// the node findings LA201–LA210, sorted by node and rule.
func Evaluate(nodes []Facts, opt EvalOptions) (report.Verdict, []report.Finding) {
	data := dataNodes(nodes)
	var v report.Verdict

	var rel []*judge
	for _, feat := range opt.releaseCommands() {
		rel = append(rel, &judge{name: "native_release", feature: string(feat), good: report.Safe, bad: report.Unsafe,
			answer: func(f Facts) (string, string) { return releaseAnswer(f, feat) }, code: codeUses(opt, string(feat))})
	}
	ext := &judge{name: "native_extend", feature: "SET IFEQ", good: report.Safe, bad: report.Unsafe,
		answer: func(f Facts) (string, string) { return f.SetIFEQ, evidenceFor(f, WhySetIFEQ) }, code: codeUses(opt, "SET IFEQ")}
	lua := &judge{name: "lua", feature: "Lua", good: report.Available, bad: report.Missing,
		answer: func(f Facts) (string, string) { return f.Lua, evidenceFor(f, WhyLua) }, code: codeUses(opt, "Lua")}
	gs := gaps(nodes, opt.Topology)
	for _, n := range data {
		for _, j := range rel {
			j.add(n, opt.Topology)
		}
		ext.add(n, opt.Topology)
		lua.add(n, opt.Topology)
	}
	v.NativeRelease = report.Safe
	for _, j := range rel {
		state, reasons := j.verdict(len(data), opt.Topology, gs)
		v.NativeRelease = worse(v.NativeRelease, state)
		v.Reasons = append(v.Reasons, reasons...)
	}
	var reasons []string
	v.NativeExtend, reasons = ext.verdict(len(data), opt.Topology, gs)
	v.Reasons = append(v.Reasons, reasons...)
	v.Lua, reasons = lua.verdict(len(data), opt.Topology, gs)
	v.Reasons = append(v.Reasons, reasons...)

	findings := nodeFindings(nodes, opt)
	for _, g := range gs {
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

// evidenceFor says how an answer is known ("COMMAND INFO DELIFEQ: nil"; a
// declared node's is "declared valkey-9.1.2", set by Declared), or why it
// is not.
func evidenceFor(f Facts, key string) string {
	if w := f.Why[key]; w != "" {
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
			out = append(out, finding("LA208", n.Addr, "%s — unknown: %s", e.String(), neededFor[e.Fact]))
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
	var out []report.Finding
	for _, n := range nodes {
		if n.Role != RoleReplica || n.Clock == nil {
			continue
		}
		if p, _ := Promotable(n, topology); p == report.No {
			continue
		}
		prim, _, outside := chainTop(byAddr, n)
		if outside != "" || prim.Role != RolePrimary || prim.Clock == nil {
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
