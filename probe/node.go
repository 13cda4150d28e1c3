package probe

import (
	"sort"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// Node is the report form of a node's facts (the JSON users parse).
func Node(f Facts, topology string) report.Node {
	p, _ := Promotable(f, topology)
	n := report.Node{
		Addr:       f.Addr,
		Role:       f.Role,
		Promotable: p,
		Server:     report.ServerUnknown,
		Lua:        f.Lua,
		DELIFEQ:    f.DELIFEQ,
		DELEX:      f.DELEX,
		SetIFEQ:    f.SetIFEQ,
		Config:     map[string]string{},
		Errors:     []string{},
		Primary:    f.Primary,
		Shard:      f.Shard,
		Hidden:     f.Hidden,
		Declared:   f.Declared,
		Notes:      append([]string(nil), f.Notes...),
		Evidence:   append([]report.Evidence(nil), f.Evidence...),
	}
	if n.Role == "" {
		n.Role = RoleUnknown
	}
	if !f.Version.IsZero() {
		n.Server = string(f.Version.Flavor)
		n.Version = f.Version.Number()
	}
	for k, v := range f.Config {
		n.Config[k] = v
	}
	for _, e := range f.Errors {
		n.Errors = append(n.Errors, e.String())
	}
	return n
}

// Nodes converts every node, sorted by role (primaries, replicas, unknown,
// Sentinels) and then address, so reports read top-down.
func Nodes(facts []Facts, topology string) []report.Node {
	out := make([]report.Node, 0, len(facts))
	for _, f := range facts {
		out = append(out, Node(f, topology))
	}
	rank := map[string]int{RolePrimary: 0, RoleReplica: 1, RoleUnknown: 2, RoleSentinel: 3}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].Role] != rank[out[j].Role] {
			return rank[out[i].Role] < rank[out[j].Role]
		}
		return out[i].Addr < out[j].Addr
	})
	return out
}

// Fleet is what the verdict is judged on (report/join): every data node's
// answers with their evidence and whether it can become primary, and why
// the nodes that can become primary are not all known.
func Fleet(facts []Facts, topology string) join.Fleet {
	fl := join.Fleet{Topology: topology}
	for _, f := range dataNodes(facts) {
		p, why := Promotable(f, topology)
		n := join.Node{Ref: f.ref(), Version: f.Version, Promotable: p, Promotion: why, Answers: map[rules.Command]join.Answer{}}
		for _, c := range rules.Commands() {
			a, ev := f.Answer(c)
			n.Answers[c] = join.Answer{Answer: a, Evidence: ev}
		}
		fl.Nodes = append(fl.Nodes, n)
	}
	for _, g := range gaps(facts, topology) {
		fl.Gaps = append(fl.Gaps, join.Gap{Node: g.node, What: g.what})
	}
	return fl
}
