// Package inventory reads a declared fleet: the nodes, their roles and the
// server versions they run (or will run after an upgrade). Preflight feeds
// it to the same verdict logic the live probe uses, so "what if the fleet
// ran these versions?" is answered without a server.
package inventory

import (
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/yamlstrict"
)

// File is a parsed inventory.
type File struct {
	Path     string `yaml:"-"`
	Topology string `yaml:"topology"` // standalone, replication, sentinel, cluster
	Nodes    []Node `yaml:"nodes"`
}

// Node is one declared server.
type Node struct {
	Addr    string `yaml:"addr"`
	Role    string `yaml:"role"`    // primary or replica
	Primary string `yaml:"primary"` // a replica's primary (an addr in the file)
	Version string `yaml:"version"` // valkey-9.1.2, redis-8.4
	// ReplicaPriority 0 means Sentinel never promotes the replica.
	ReplicaPriority *int `yaml:"replica_priority"`
	// NoFailover is cluster-replica-no-failover yes: promotable only by a
	// manual CLUSTER FAILOVER.
	NoFailover bool `yaml:"no_failover"`
	// Lua false declares a node without a Lua engine (9.1+ built without
	// Lua, or the module not loaded). Absent: default builds have Lua.
	Lua *bool `yaml:"lua"`

	Parsed rules.Version `yaml:"-"`
}

// Example is the commented inventory `lockaudit help preflight` prints.
const Example = `# lockaudit inventory: the fleet as it will be during the upgrade.
topology: sentinel
nodes:
  - addr: 10.0.0.1:6379
    role: primary
    version: valkey-9.1.2
  - addr: 10.0.0.7:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-8.1.1
  - addr: 10.0.0.8:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-8.0.1
    replica_priority: 0     # Sentinel never promotes it
`

// Load reads and validates an inventory file (at most
// yamlstrict.MaxFileSize bytes, and probe.MaxNodes nodes).
func Load(path string) (*File, error) {
	data, err := yamlstrict.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading inventory: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates inventory text; path is used in errors.
func Parse(path string, data []byte) (*File, error) {
	f := &File{Path: path}
	err := yamlstrict.Decode(path, data, f, yamlstrict.Checks{Key: func(key string) error { return check(f, key) }, MaxItems: probe.MaxNodes})
	if err != nil {
		return nil, err
	}
	if len(f.Nodes) == 0 {
		return nil, &yamlstrict.Error{Path: path, Key: "nodes", Msg: "no nodes declared"}
	}
	addrs := map[string]bool{}
	for i, n := range f.Nodes {
		key := fmt.Sprintf("nodes[%d]", i)
		switch {
		case n.Addr == "":
			return nil, &yamlstrict.Error{Path: path, Key: key + ".addr", Msg: "missing"}
		case n.Version == "":
			return nil, &yamlstrict.Error{Path: path, Key: key + ".version", Msg: "missing (e.g. valkey-9.1.2)"}
		case n.Role == "":
			return nil, &yamlstrict.Error{Path: path, Key: key + ".role", Msg: "missing (primary or replica)"}
		case addrs[n.Addr]:
			return nil, &yamlstrict.Error{Path: path, Key: key + ".addr", Msg: fmt.Sprintf("%s declared twice", n.Addr)}
		}
		addrs[n.Addr] = true
	}
	for i, n := range f.Nodes {
		if n.Primary != "" && !addrs[n.Primary] {
			return nil, &yamlstrict.Error{Path: path, Key: fmt.Sprintf("nodes[%d].primary", i), Msg: fmt.Sprintf("%s is not a declared node", n.Primary)}
		}
		if n.Role == "primary" && n.Primary != "" {
			return nil, &yamlstrict.Error{Path: path, Key: fmt.Sprintf("nodes[%d].primary", i), Msg: "a primary has no primary"}
		}
	}
	return f, nil
}

// Facts turns the inventory into declared facts (probe.Declared) with what
// each node declares, and says which topology decides promotability: the
// inventory's (a replica at replica_priority 0 is never promoted only under
// Sentinel), else probe.DeclaredTop, under which every replica can be.
func (f *File) Facts() ([]probe.Facts, string) {
	topology := f.Topology
	if topology == "" {
		topology = probe.DeclaredTop
	}
	where := filepath.Base(f.Path)
	var facts []probe.Facts
	for _, n := range f.Nodes {
		fa := probe.Declared(n.Addr, n.Role, n.Parsed)
		fa.Primary = n.Primary
		if n.ReplicaPriority != nil {
			fa.ReplicaPriority = *n.ReplicaPriority
			fa.Config["replica-priority"] = strconv.Itoa(*n.ReplicaPriority)
		}
		if n.NoFailover {
			fa.NoFailover = report.Yes
			fa.Config["cluster-replica-no-failover"] = "yes"
		}
		if n.Lua != nil && !*n.Lua {
			fa.DeclareNoLua(where)
		}
		fa.Evidence = append(fa.Evidence, report.Evidence{Command: "declared", Answer: "in " + where})
		facts = append(facts, fa)
	}
	return facts, topology
}

// Targets declares one primary per release (preflight -target
// valkey-9.0,valkey-8.1): each stands for every node running it.
func Targets(targets []string) ([]probe.Facts, error) {
	var facts []probe.Facts
	for _, t := range targets {
		v, err := rules.ParseTarget(t)
		if err != nil {
			return nil, fmt.Errorf("-target: %v", err)
		}
		f := probe.Declared("target "+t, probe.RolePrimary, v)
		f.Target = t
		f.Notes = append(f.Notes, "declared by -target "+t+": one primary of that release stands for every node running it")
		facts = append(facts, f)
	}
	return facts, nil
}

// check validates one decoded key; key is like "nodes[2].version".
func check(f *File, key string) error {
	if key == "topology" {
		switch f.Topology {
		case "standalone", "replication", "sentinel", "cluster":
			return nil
		}
		return fmt.Errorf("unknown topology %q (want standalone, replication, sentinel or cluster)", f.Topology)
	}
	var i int
	var field string
	if _, err := fmt.Sscanf(key, "nodes[%d].%s", &i, &field); err != nil || i >= len(f.Nodes) {
		return nil
	}
	n := &f.Nodes[i]
	switch field {
	case "addr":
		return probe.CheckAddr(n.Addr)
	case "primary":
		return probe.CheckAddr(n.Primary)
	case "role":
		if n.Role != "primary" && n.Role != "replica" {
			return fmt.Errorf("unknown role %q (want primary or replica)", n.Role)
		}
	case "version":
		v, err := rules.ParseTarget(n.Version)
		if err != nil {
			return err
		}
		n.Parsed = v
	case "replica_priority":
		if *n.ReplicaPriority < 0 {
			return fmt.Errorf("must be 0 or more")
		}
	}
	return nil
}
