package probe

import (
	"sort"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
	"github.com/lockaudit/lockaudit/rules"
)

// reportNode is the report form of a judged node (the JSON users parse).
func reportNode(j judged) report.Node {
	f := j.Facts
	n := report.Node{
		Addr:       f.Addr,
		Role:       f.Role,
		Promotable: j.promotable,
		Server:     report.ServerUnknown,
		Config:     map[string]string{},
		Errors:     []string{},
		Primary:    f.Primary,
		Shard:      f.Shard,
		Hidden:     f.Hidden,
		Declared:   f.Declared,
		Notes:      append([]string(nil), f.Notes...),
		Evidence:   append([]report.Evidence(nil), f.Evidence...),
	}
	n.Lua, _ = j.Answer(rules.UseLua)
	n.DELIFEQ, _ = j.Answer(rules.UseDELIFEQ)
	n.DELEX, _ = j.Answer(rules.UseDELEX)
	n.SetIFEQ, _ = j.Answer(rules.UseIFEQ)
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

// reportNodes converts every node, sorted by role (primaries, replicas,
// unknown, Sentinels) and then address, so reports read top-down.
func reportNodes(js []judged) []report.Node {
	out := make([]report.Node, 0, len(js))
	for _, j := range js {
		out = append(out, reportNode(j))
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

// fleetOf is what the verdict is judged on (report/join): every data
// node's answers with their evidence, whether it can become primary, a
// replica whose replication link is down, and why the nodes that can
// become primary are not all known (gaps).
func fleetOf(js []judged, gs []gap, topology string) join.Fleet {
	fl := join.Fleet{Topology: topology}
	for _, j := range js {
		if j.Role == RoleSentinel {
			continue
		}
		n := join.Node{Ref: j.ref(), Promotable: j.promotable, Promotion: j.promotion, Answers: map[rules.Command]join.Answer{}}
		for _, c := range rules.Commands() {
			a, ev := j.Answer(c)
			n.Answers[c] = join.Answer{Answer: a, Evidence: ev}
		}
		if l := j.seen.link; l.down() && j.Role == RoleReplica {
			n.Unsynced = l.report()
		}
		fl.Nodes = append(fl.Nodes, n)
	}
	for _, g := range gs {
		fl.Gaps = append(fl.Gaps, join.Gap{Node: g.node, What: g.what})
	}
	return fl
}
