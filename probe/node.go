package probe

import (
	"sort"

	"github.com/lockaudit/lockaudit/report"
)

// Node is the report form of a node's facts (the JSON users parse).
func Node(f Facts, topology string) report.Node {
	p, _ := Promotable(f, topology)
	n := report.Node{
		Addr:       f.Addr,
		Role:       f.Role,
		Promotable: p,
		Server:     report.Unknown,
		Lua:        tri(f.Lua),
		DELIFEQ:    tri(f.DELIFEQ),
		DELEX:      tri(f.DELEX),
		SetIFEQ:    tri(f.SetIFEQ),
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

func tri(s string) string {
	switch s {
	case report.Yes, report.No:
		return s
	}
	return report.Unknown
}
