package probe

import (
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// nodeRules are the probe's node rules, each a small pure function over
// one node's facts and the run's context, returning its findings as typed
// values (nodewords.go words them; the catalog's title goes in front). Evaluate applies every
// rule to every node; a rule sees the data nodes that answered unless it
// says everyNode (LA208 speaks of Sentinels and unreachable nodes too).
var nodeRules = []nodeRule{
	{id: rules.LA201, check: la201},
	{id: rules.LA202, check: la202},
	{id: rules.LA203, check: la203},
	{id: rules.LA204, check: la204},
	{id: rules.LA205, check: la205},
	{id: rules.LA206, check: la206},
	{id: rules.LA207, check: la207},
	{id: rules.LA208, check: la208, everyNode: true},
	{id: rules.LA209, check: la209},
	{id: rules.LA210, check: la210},
	{id: rules.LA214, check: la214},
}

type nodeRule struct {
	id        rules.ID
	check     func(n judged, c *nodeContext) []nodeHit
	everyNode bool
}

// nodeContext is what a rule may know besides the node: whether the node
// can become primary (and why: the judged node's, decided once), the
// commands relied on, and the fleet's other nodes by address (LA207
// compares clocks with the primary, LA214 versions).
type nodeContext struct {
	promotable report.Promotable
	promotion  report.Promotion
	relied     []rules.Command
	topology   string
	skew       time.Duration
	byAddr     map[string]Facts
}

func (c *nodeContext) relies(cmd rules.Command) bool {
	for _, r := range c.relied {
		if r == cmd {
			return true
		}
	}
	return false
}

// nodeFindings applies every node rule to every node.
func nodeFindings(nodes []judged, opt EvalOptions) []report.Finding {
	byAddr := map[string]Facts{}
	for _, n := range nodes {
		byAddr[n.Addr] = n.Facts
	}
	var out []report.Finding
	for _, n := range nodes {
		c := &nodeContext{relied: opt.Relied, topology: opt.Topology, skew: opt.Skew, byAddr: byAddr}
		c.promotable, c.promotion = n.promotable, n.promotion
		data := n.Role != RoleSentinel && n.reached()
		for _, r := range nodeRules {
			if !data && !r.everyNode {
				continue
			}
			for _, h := range r.check(n, c) {
				f := finding(r.id, n.Addr, "%s", h.message())
				f.Subject = h.subject()
				out = append(out, f)
			}
		}
	}
	return out
}

// lacks is LA201–LA203: a node that can become primary lacks a command the
// code relies on, as every verdict weighs it (report.NodeStanding).
func lacks(n judged, c *nodeContext, cmds ...rules.Command) []nodeHit {
	var out []nodeHit
	for _, cmd := range cmds {
		a, why := n.Answer(cmd)
		if kind, _, _ := report.NodeStanding(c.promotable, a); !c.relies(cmd) || kind != report.Lacks {
			continue
		}
		out = append(out, missingCommand{node: n.Facts, cmd: cmd, why: why, promotion: c.promotion})
	}
	return out
}

// la201: the release commands (DELIFEQ, DELEX).
func la201(n judged, c *nodeContext) []nodeHit {
	return lacks(n, c, rules.NativeRelease.Commands()...)
}

// la202: SET IFEQ.
func la202(n judged, c *nodeContext) []nodeHit { return lacks(n, c, rules.UseIFEQ) }

// la203: Lua.
func la203(n judged, c *nodeContext) []nodeHit { return lacks(n, c, rules.UseLua) }

// la204: a primary with replicas that accepts writes none of them
// acknowledged.
func la204(n judged, _ *nodeContext) []nodeHit {
	if n.Role == RolePrimary && n.Replicas > 0 && n.Config["min-replicas-to-write"] == "0" {
		return []nodeHit{unacknowledged{replicas: n.Replicas}}
	}
	return nil
}

// la205: a node that may become primary and does not fsync every write.
func la205(n judged, c *nodeContext) []nodeHit {
	if c.promotable == report.PromotableNo {
		return nil
	}
	switch ao, af := n.Config["appendonly"], n.Config["appendfsync"]; {
	case ao == "no", ao == "yes" && af != "" && af != "always":
		return []nodeHit{unsynced{appendonly: ao, appendfsync: af}}
	}
	return nil
}

// la206: a node that may become primary and evicts keys.
func la206(n judged, c *nodeContext) []nodeHit {
	mm, pol := n.Config["maxmemory"], n.Config["maxmemory-policy"]
	if c.promotable == report.PromotableNo || mm == "" || mm == "0" || pol == "" || pol == "noeviction" {
		return nil
	}
	return []nodeHit{evicting{maxmemory: mm, policy: pol}}
}

// la207: a promotable replica whose clock differs from its primary's (the
// top of its replication chain) by more than the threshold.
func la207(n judged, c *nodeContext) []nodeHit {
	if n.Role != RoleReplica || n.Clock == nil || c.promotable == report.PromotableNo {
		return nil
	}
	prim, _, outside := chainTop(c.byAddr, n.Facts)
	if outside != "" || prim.Role != RolePrimary || prim.Clock == nil {
		return nil
	}
	d := n.Clock.Offset - prim.Clock.Offset
	if d.Abs() <= c.skew {
		return nil
	}
	return []nodeHit{skewed{by: d, primary: prim.Addr, threshold: c.skew, rtt: n.Clock.RTT, primaryRTT: prim.Clock.RTT}}
}

// la208: everything that could not be read, with what it decides.
func la208(n judged, _ *nodeContext) []nodeHit {
	var out []nodeHit
	for _, e := range n.Errors {
		out = append(out, unread{e})
	}
	return out
}

// la209: a replica hidden from Sentinel (replica-announced no) that may
// become primary.
func la209(n judged, c *nodeContext) []nodeHit {
	if !n.Hidden || c.promotable == report.PromotableNo {
		return nil
	}
	return []nodeHit{hidden{addr: n.Addr, primary: n.Primary, promotion: c.promotion}}
}

// la210: a Redis node, where the native lock commands differ.
func la210(n judged, _ *nodeContext) []nodeHit {
	if n.Version.Flavor != rules.Redis {
		return nil
	}
	return []nodeHit{onRedis{addr: n.Addr, version: n.Version}}
}

// la214: a replica that can become primary whose replication link is
// down: it does not hold the locks its primary (the top of its chain)
// holds. An older release
// under a newer primary (Redis 7.0 under 8.6) may never sync: it cannot
// load the primary's snapshot format.
func la214(n judged, c *nodeContext) []nodeHit {
	l := n.seen.link
	if n.Role != RoleReplica || !l.down() || c.promotable == report.PromotableNo {
		return nil
	}
	if top, _, outside := chainTop(c.byAddr, n.Facts); outside != "" || top.Role != RolePrimary {
		return nil // no primary to be in sync with: a gap (completeness.go) says so
	}
	h := outOfSync{node: n.Facts, link: l, promotion: c.promotion}
	if p, ok := c.byAddr[n.Primary]; ok && olderThan(n.Version, p.Version) {
		h.olderThan = p.Version
	}
	return []nodeHit{h}
}

// olderThan reports whether release a is older than b: within a flavor by
// version; across flavors never (their formats are not ordered).
func olderThan(a, b rules.Version) bool {
	return !a.IsZero() && !b.IsZero() && a.Flavor == b.Flavor && a.Compare(b) < 0
}
