package inventory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe"
)

func TestExample(t *testing.T) {
	f, err := Parse("inv.yaml", []byte(Example))
	if err != nil {
		t.Fatal(err)
	}
	if f.Topology != "sentinel" || len(f.Nodes) != 3 {
		t.Fatalf("got %+v", f)
	}
	n := f.Nodes[2]
	if n.Parsed.String() != "valkey-8.0.1" || n.ReplicaPriority == nil || *n.ReplicaPriority != 0 || n.Primary != "10.0.0.1:6379" {
		t.Errorf("node 2 = %+v", n)
	}
	if f.Nodes[0].ReplicaPriority != nil || f.Nodes[0].Lua != nil {
		t.Errorf("absent keys must stay nil: %+v", f.Nodes[0])
	}
}

func TestErrors(t *testing.T) {
	node := func(extra string) string {
		return "nodes:\n  - addr: 10.0.0.1:6379\n    role: primary\n    version: valkey-9.1\n" + extra
	}
	for _, tc := range []struct{ name, src, want string }{
		{"not yaml", "nodes: [\n", "inv.yaml: not valid YAML"},
		{"no nodes", "topology: cluster\n", "inv.yaml: nodes: no nodes declared"},
		{"unknown key", node("    colour: red\n"), "inv.yaml:5: nodes[0].colour: unknown key"},
		{"bad version", "nodes:\n  - addr: a:1\n    role: primary\n    version: valkey-nine\n", `inv.yaml:4: nodes[0].version: unknown target "valkey-nine"`},
		{"bad flavor", "nodes:\n  - addr: a:1\n    role: primary\n    version: keydb-6.3\n", `inv.yaml:4: nodes[0].version: unknown target "keydb-6.3"`},
		{"bad addr", "nodes:\n  - addr: localhost\n", `inv.yaml:2: nodes[0].addr: "localhost" is not HOST:PORT`},
		{"bad role", "nodes:\n  - role: leader\n", `inv.yaml:2: nodes[0].role: unknown role "leader"`},
		{"missing version", "nodes:\n  - addr: a:1\n    role: primary\n", "nodes[0].version: missing"},
		{"dangling primary", node("  - addr: b:1\n    role: replica\n    primary: c:1\n    version: valkey-8.1\n"), "nodes[1].primary: c:1 is not a declared node"},
		{"duplicate", node("  - addr: 10.0.0.1:6379\n    role: replica\n    version: valkey-8.1\n"), "nodes[1].addr: 10.0.0.1:6379 declared twice"},
		{"bad priority", node("    replica_priority: -1\n"), "inv.yaml:5: nodes[0].replica_priority: must be 0 or more"},
		{"bad topology", "topology: mesh\n" + node(""), `inv.yaml:1: topology: unknown topology "mesh"`},
		{"wrong type", "nodes: 3\n", "inv.yaml:1: nodes: want a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("inv.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestSecretsRefusedUnshown: an address with credentials, as a node's addr
// or as a replica's primary, is refused without being echoed.
func TestSecretsRefusedUnshown(t *testing.T) {
	for _, addr := range []string{"probe:hunter2@10.0.0.7:6379", "hunter2@10.0.0.7:6379", "hunter2@cache", "redis://:hunter2@10.0.0.7:6379", "rediss://10.0.0.7:6380", "valkey://hunter2@10.0.0.7:6379"} {
		for _, src := range []string{
			"nodes:\n  - addr: '" + addr + "'\n    role: primary\n    version: valkey-9.1\n",
			"nodes:\n  - addr: 10.0.0.1:6379\n    role: primary\n    version: valkey-9.1\n  - addr: 10.0.0.2:6379\n    role: replica\n    primary: '" + addr + "'\n    version: valkey-8.1\n",
		} {
			_, err := Parse("inv.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), "inv.yaml:") || !strings.Contains(err.Error(), "not shown") {
				t.Errorf("%s: error %v, want a refusal naming the line", addr, err)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("%s: the error echoes the secret: %v", addr, err)
			}
		}
	}
}

// TestNodeLimit: an inventory declares at most probe.MaxNodes nodes, the
// probe's own limit; more is refused where the list starts.
func TestNodeLimit(t *testing.T) {
	inv := func(n int) []byte {
		var b strings.Builder
		b.WriteString("topology: cluster\nnodes:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {addr: '10.%d.%d.%d:6379', role: primary, version: valkey-9.1}\n", i>>16, i>>8&255, i&255)
		}
		return []byte(b.String())
	}
	if f, err := Parse("inv.yaml", inv(probe.MaxNodes)); err != nil || len(f.Nodes) != probe.MaxNodes {
		t.Fatalf("%d nodes: %v", probe.MaxNodes, err)
	}
	if _, err := Parse("inv.yaml", inv(probe.MaxNodes+1)); err == nil || err.Error() != "inv.yaml:3: nodes: 10001 items: a list or mapping holds at most 10000 (docs/config.md#limits)" {
		t.Errorf("%d nodes: %v", probe.MaxNodes+1, err)
	}
}
