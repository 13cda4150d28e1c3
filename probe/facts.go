// Package probe reads Valkey/Redis nodes without writing to them and decides
// whether the native lock path (DELIFEQ/DELEX release, SET IFEQ extend) and
// Lua are available on every node that can become primary.
//
// The work is split in two. Collection (Collect: I/O) discovers the nodes
// and reads one Facts value per node: what it read, and what it could not
// read and why. Evaluation (Evaluate: pure) turns a []Facts into the report's
// nodes, the node findings LA201–LA210 (a table of small rules, rules.go)
// and the fleet the verdict is judged on (report/join, which ties it to the
// code). Preflight feeds declared nodes (Declared, probe/inventory) through
// the same pure code, so a declared fleet and a probed fleet are judged
// alike. Run is Collect, Evaluate and the verdict for lockaudit probe.
package probe

import (
	"time"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Node roles, as in report.Node.Role.
const (
	RolePrimary  = report.RolePrimary
	RoleReplica  = report.RoleReplica
	RoleSentinel = report.RoleSentinel
	RoleUnknown  = report.RoleUnknown
)

// Topologies, as in report.Run.Topology.
const (
	Standalone  = report.TopologyStandalone
	Replication = report.TopologyReplication
	Sentinel    = report.TopologySentinel
	Cluster     = report.TopologyCluster
	DeclaredTop = report.TopologyDeclared // preflight: nodes come from an inventory
)

// Fact names one piece of evidence read on a node. A fact that could not be
// read makes unknown only the answers that need it (see answers.go).
type Fact string

const (
	FactConnect     Fact = "connection"            // dial, TLS, AUTH: without it nothing is known
	FactServer      Fact = "INFO server"           // flavor and version
	FactRole        Fact = "ROLE"                  // primary or replica
	FactCommands    Fact = "COMMAND INFO"          // DELIFEQ, DELEX, EVAL exist
	FactSetDocs     Fact = "COMMAND DOCS SET"      // SET lists IFEQ
	FactLua         Fact = "INFO scriptingengines" // Lua engine loaded (9.1+)
	FactReplication Fact = "INFO replication"      // replicas, replica-priority
	FactConfig      Fact = "CONFIG GET"            // persistence, eviction, priority, no-failover
	FactTime        Fact = "TIME"                  // clock offset
	FactCluster     Fact = "CLUSTER NODES"         // cluster members and their flags (or CLUSTER SHARDS)
	FactSentinel    Fact = "SENTINEL"              // monitored primaries, replicas, sentinels
	FactDiscovery   Fact = "discovery"             // nodes this one named that were not probed (the node limit)
)

// neededFor says, for messages, what each fact decides.
var neededFor = map[Fact]string{
	FactConnect:     "every answer about this node",
	FactServer:      "the server flavor and version",
	FactRole:        "whether the node is a primary or a replica",
	FactCommands:    "DELIFEQ/DELEX (native_release) and EVAL (lua)",
	FactSetDocs:     "SET IFEQ (native_extend; the version is used instead)",
	FactLua:         "the Lua engine (lua)",
	FactReplication: "the node's replicas and replica-priority (without its replicas, the nodes that can become primary are not all known)",
	FactConfig:      "replica-priority, cluster-replica-no-failover, persistence, eviction and min-replicas checks",
	FactTime:        "the clock-skew check",
	FactCluster:     "cluster members and their no-failover flags",
	FactSentinel:    "the monitored primaries, replicas and replica priorities",
	FactDiscovery:   "the nodes that can become primary",
}

// FactError is a fact that could not be read. Reason never carries a secret.
type FactError struct {
	Fact    Fact
	Command string // what was sent, e.g. "CONFIG GET"; "" for the connection
	Reason  string // e.g. "ERR unknown command 'CONFIG'", "NOPERM ...", "i/o timeout"
}

func (e FactError) String() string {
	if e.Command == "" {
		return string(e.Fact) + ": " + e.Reason
	}
	return e.Command + ": " + e.Reason
}

// Clock is a node's TIME compared with the local clock: Offset is the node's
// time minus the local time at the middle of the round trip.
type Clock struct {
	Offset time.Duration
	RTT    time.Duration
}

// Facts is everything read on one node, as read: who it is (address,
// role, primary, shard: discovery's cross-checked answer, with what other
// nodes said of it), the replies its lock answers are decided from
// (observations, kept as parsed, never judged here), and every fact that
// could not be read with the error as returned. Evaluation decides the
// node's answers and whether it can become primary from these, once
// (judge); a declared node (preflight) carries its declared release
// instead of replies.
type Facts struct {
	Addr     string
	Role     string // RolePrimary, RoleReplica, RoleSentinel or RoleUnknown
	Primary  string // a replica's primary
	Shard    string // cluster shard ID
	Hidden   bool   // replica-announced no: found through its primary, not through Sentinel
	Declared bool   // from an inventory, not read from a server
	// Target is set on a declared node that stands for every node of a
	// release (preflight -target valkey-8.1): messages then speak of
	// "every valkey-8.1 node".
	Target string

	Version rules.Version // zero when unknown; carries the flavor

	// Promotability inputs.
	ReplicaPriority int           // -1 when unknown; 0 = Sentinel never promotes the replica
	NoFailover      report.Answer // cluster-replica-no-failover (or the nofailover flag)

	Config   map[string]string // CONFIG GET parameters read (never a secret)
	Replicas int               // connected replicas; -1 when they could not be listed
	// ClusterView is set when this node's list of the cluster's members
	// (CLUSTER NODES or CLUSTER SHARDS) was read: one such list names every
	// node that can become primary.
	ClusterView bool
	Clock       *Clock // nil when TIME was not read

	// seen are the replies the answers are decided from (answers.go).
	seen observed

	Errors   []FactError
	Evidence []report.Evidence // every command's answer, for the audit trail
	Notes    []string
}

// newFacts returns Facts with nothing read.
func newFacts(addr string) Facts {
	return Facts{
		Addr: addr, Role: RoleUnknown,
		ReplicaPriority: -1, Replicas: -1,
		Config: map[string]string{},
	}
}

// Declared returns the facts of a node that is declared, not probed: a role
// (primary or replica) and a version, whose answers are the capability
// table's for that version (rules.Supports), and the server defaults
// (replica-priority 100, no cluster-replica-no-failover, Lua built in).
// Callers may then set Primary, ReplicaPriority or NoFailover, or
// DeclareNoLua, from what the inventory declares.
func Declared(addr, role string, v rules.Version) Facts {
	f := newFacts(addr)
	f.Declared = true
	f.Role = role
	if role != RolePrimary && role != RoleReplica {
		f.Role = RoleUnknown
	}
	f.Version = v
	f.ReplicaPriority = 100
	f.NoFailover = report.No
	f.Evidence = []report.Evidence{{Command: "declared", Answer: v.String() + " (features by version)"}}
	return f
}

// DeclareNoLua declares that the node has no Lua engine (an inventory's
// lua: false); where names the declaration.
func (f *Facts) DeclareNoLua(where string) { f.seen.noLua = where }

// reached reports whether the node answered at all.
func (f Facts) reached() bool {
	if f.Declared {
		return true
	}
	for _, e := range f.Errors {
		if e.Fact == FactConnect {
			return false
		}
	}
	return true
}

// Unreached returns why the collection could not connect to the node at
// all, and whether it could not. scan and conform do not dial again a
// node the collection could not reach: each attempt on a dead address
// costs -timeout, and the run's deadline is shared.
func Unreached(nodes []Facts) map[string]string {
	out := map[string]string{}
	for _, f := range nodes {
		if e, ok := f.failed(FactConnect); ok && !f.Declared {
			out[f.Addr] = e.String()
		}
	}
	return out
}

// failed returns the error for a fact, if it could not be read.
func (f Facts) failed(fact Fact) (FactError, bool) {
	for _, e := range f.Errors {
		if e.Fact == fact {
			return e, true
		}
	}
	return FactError{}, false
}

// chainTop follows f's primaries up its replication chain among byAddr's
// nodes, stopping at a loop. It returns the highest node reached, how many
// steps up it is, and the address its primary link points at when that
// primary is not among the nodes ("" when the chain ends inside them).
func chainTop(byAddr map[string]Facts, f Facts) (top Facts, depth int, outside string) {
	seen := map[string]bool{}
	for f.Role == RoleReplica && f.Primary != "" && !seen[f.Addr] {
		seen[f.Addr] = true
		p, ok := byAddr[f.Primary]
		if !ok {
			return f, depth, f.Primary
		}
		f, depth = p, depth+1
	}
	return f, depth, ""
}

// describe names a node for messages as reasons do (report.NodeRef.Describe):
// "replica 127.0.0.1:7002 (Valkey 8.1.1, promotable)".
func (f Facts) describe(extra ...string) string { return f.ref().Describe(extra...) }

// serverName prints "Valkey 8.1.1" or "Redis 7.0.15".
func serverName(v rules.Version) string { return report.ServerName(string(v.Flavor), v.Number()) }

// ref names the node in verdict reasons.
func (f Facts) ref() report.NodeRef {
	r := report.NodeRef{Addr: f.Addr, Role: f.Role, Target: f.Target}
	if !f.Version.IsZero() {
		r.Server, r.Version = string(f.Version.Flavor), f.Version.Number()
	}
	return r
}
