package probe

import (
	"slices"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Target is the release a fleet's code must run on, derived from the
// fleet: for each flavor among the nodes that can become primary (every
// data node a failover is not known never to promote), the lowest release
// line any of them runs. audit and preflight -inventory judge the code
// half there unless -target (or the config file's target) names one.
type Target struct {
	// Lines are the release lines, one per flavor ("valkey-8.1"), each a
	// line -target accepts (a release newer than every known line counts
	// as the newest known one).
	Lines []string
	// Nodes name, for each line, a node that runs it (the reason).
	Nodes []TargetNode
	// Unknown lists the nodes that can become primary whose release could
	// not be read: the lines may be too new for them.
	Unknown []string
}

// TargetNode is a node that sets a line of the target.
type TargetNode struct {
	Addr    string
	Version rules.Version
}

// targetOf derives the fleet's target from its judged nodes.
func targetOf(js []judged) Target {
	var t Target
	lowest := map[rules.Flavor]judged{}
	var flavors []rules.Flavor
	for _, j := range js {
		if j.Role == RoleSentinel || j.promotable == report.PromotableNo || !j.reached() {
			if !j.reached() && j.Role != RoleSentinel {
				t.Unknown = append(t.Unknown, j.Addr)
			}
			continue
		}
		if j.Version.IsZero() {
			t.Unknown = append(t.Unknown, j.Addr)
			continue
		}
		cur, ok := lowest[j.Version.Flavor]
		if !ok {
			flavors = append(flavors, j.Version.Flavor)
		}
		if !ok || j.Version.Compare(cur.Version) < 0 {
			lowest[j.Version.Flavor] = j
		}
	}
	for _, fl := range rules.Flavors() {
		if !slices.Contains(flavors, fl) {
			continue
		}
		j := lowest[fl]
		line, ok := knownLine(j.Version)
		if !ok {
			t.Unknown = append(t.Unknown, j.Addr)
			continue
		}
		t.Lines = append(t.Lines, line)
		t.Nodes = append(t.Nodes, TargetNode{Addr: j.Addr, Version: j.Version})
	}
	slices.Sort(t.Unknown)
	return t
}

// knownLine is the newest release line -target accepts that is not newer
// than v ("valkey-9.1" for 9.1.2); a release older than every known line
// of its flavor has the oldest one, whose lock commands it shares.
func knownLine(v rules.Version) (string, bool) {
	var best string
	var oldest string
	for _, l := range rules.Lines() {
		if l.Flavor != v.Flavor {
			continue
		}
		if oldest == "" {
			oldest = l.Line()
		}
		if l.Compare(v) <= 0 {
			best = l.Line()
		}
	}
	if best == "" {
		best = oldest
	}
	return best, best != ""
}
