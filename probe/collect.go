package probe

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/report"
)

// link is a node that another node's reply points at, with what that reply
// says about it. Hints fill in facts a node cannot tell about itself (or
// cannot tell at all when it is unreachable).
type link struct {
	addr       string
	role       string // RolePrimary, RoleReplica, RoleSentinel or ""
	primary    string // its primary's address
	shard      string
	priority   int    // replica-priority from SENTINEL REPLICAS; -1 unknown
	noFailover string // from CLUSTER NODES flags; "" unknown
	master     string // Sentinel: the name it monitors this primary under
	listed     bool   // Sentinel: listed by SENTINEL REPLICAS
	via        string // where this came from, for evidence
}

// nodeResult is what probing one node yields.
type nodeResult struct {
	facts Facts
	mode  string // standalone, cluster, sentinel; "" when INFO server failed
	runID string
	links []link
	// Sentinel: the primaries whose SENTINEL REPLICAS was read.
	replicasRead map[string]bool
	view         bool // a cluster view was read
}

// probeNode reads every fact of one node. It never returns an error: what
// could not be read is recorded in the facts. wantView asks a cluster node
// for its view of the cluster (CLUSTER NODES/SHARDS); one view names every
// member, so only seeds are asked unless no view has been read yet.
func probeNode(ctx context.Context, d *dialer, addr, master string, wantView func() bool) nodeResult {
	res := nodeResult{facts: newFacts(addr)}
	f := &res.facts
	c, err := d.dial(ctx, addr)
	if err != nil {
		f.fail(FactConnect, "", err)
		return res
	}
	defer c.close()

	start := time.Now()
	v, err := c.send(ctx, "INFO", "server")
	rtt := time.Since(start) // a small reply: the round trip TIME is corrected by
	if err != nil {
		f.fail(FactServer, "INFO server", err)
		return res // the connection is gone or refused the basics
	}
	var o observed
	if text, err := infoText(v); err != nil {
		f.fail(FactServer, "INFO server", err)
	} else if si, err := parseInfoServer(text); err != nil {
		f.fail(FactServer, "INFO server", err)
	} else {
		o.version, res.mode, res.runID = si.version, si.mode, si.runID
		f.evidence("INFO server", fmt.Sprintf("%s, mode %s", serverName(si.version), si.mode))
	}
	if res.mode == "sentinel" {
		f.Role = RoleSentinel
		f.Version = o.version
		probeSentinel(ctx, c, &res, master)
		return res
	}
	probeData(ctx, c, &res, &o, d.tls != nil, rtt, res.mode == "cluster" && wantView())
	decide(f, o)
	return res
}

// probeData reads a data node (standalone or cluster) in one round trip.
// TIME goes first in the batch, so the server reads its clock half a round
// trip (measured on INFO server, a small reply) after the batch was sent.
func probeData(ctx context.Context, c *conn, res *nodeResult, o *observed, tls bool, rtt time.Duration, cluster bool) {
	f := &res.facts
	cmds := [][]string{
		{"TIME"},
		{"ROLE"},
		{"INFO", "replication"},
		{"INFO", "scriptingengines"},
		commandInfo,
		{"COMMAND", "DOCS", "SET"},
		append([]string{"CONFIG", "GET"}, configParams...),
	}
	if cluster {
		cmds = append(cmds, []string{"CLUSTER", "NODES"}, []string{"CLUSTER", "SHARDS"})
	}
	sent := time.Now()
	vs, err := c.sendAll(ctx, cmds)
	if err != nil {
		for _, fact := range []Fact{FactTime, FactRole, FactReplication, FactLua, FactCommands, FactSetDocs, FactConfig} {
			f.fail(fact, string(fact), err)
		}
		return
	}
	if t, err := parseTime(vs[0]); err != nil {
		f.fail(FactTime, "TIME", err)
	} else {
		f.Clock = &Clock{Offset: t.Sub(sent.Add(rtt / 2)), RTT: rtt}
		f.evidence("TIME", fmt.Sprintf("offset %s from the local clock, round trip %s", f.Clock.Offset.Round(time.Microsecond), rtt.Round(time.Microsecond)))
	}
	vs = vs[1:]

	// Role: ROLE, else INFO replication.
	role, roleErr := parseRole(vs[0])
	if roleErr != nil {
		f.fail(FactRole, "ROLE", roleErr)
	} else {
		f.Role, f.Primary = role.role, role.primary
		f.evidence("ROLE", describeRole(role))
	}
	if text, err := infoText(vs[1]); err != nil {
		f.fail(FactReplication, "INFO replication", err)
	} else if ri, err := parseInfoReplication(text); err != nil {
		f.fail(FactReplication, "INFO replication", err)
	} else {
		if roleErr != nil {
			f.Role, f.Primary = ri.role, ri.primary
			f.dropError(FactRole) // INFO replication answered it
		}
		f.Replicas = ri.connected
		if ri.priority >= 0 {
			f.ReplicaPriority = ri.priority
		}
		for _, r := range ri.replicas {
			res.links = append(res.links, link{addr: r, role: RoleReplica, primary: c.addr, priority: -1, via: "INFO replication of " + c.addr})
		}
		f.evidence("INFO replication", describeReplication(ri))
	}
	if f.Role == RoleReplica && f.Primary != "" {
		res.links = append(res.links, link{addr: f.Primary, priority: -1, via: "primary of " + c.addr})
	}
	if text, err := infoText(vs[2]); err != nil {
		f.fail(FactLua, "INFO scriptingengines", err)
	} else if sc, err := parseInfoScripting(text); err != nil {
		f.fail(FactLua, "INFO scriptingengines", err)
	} else {
		o.scripting = &sc
		if sc.present {
			f.evidence("INFO scriptingengines", fmt.Sprintf("engines_count:%d %s", sc.engines, strings.Join(sc.names, " ")))
		} else {
			f.evidence("INFO scriptingengines", "no such section (before Valkey 9.1 Lua is built in)")
		}
	}
	if m, err := parseCommandInfo(vs[3], commandInfo[2:]); err != nil {
		f.fail(FactCommands, strings.Join(commandInfo, " "), err)
	} else {
		o.commands = m
		var parts []string
		for _, n := range commandInfo[2:] {
			state := "present"
			if !m[strings.ToLower(n)] {
				state = "nil"
			}
			parts = append(parts, n+" "+state)
		}
		f.evidence(strings.Join(commandInfo, " "), strings.Join(parts, ", "))
	}
	if tokens, found, err := parseSetConditions(vs[4]); err != nil {
		f.fail(FactSetDocs, "COMMAND DOCS SET", err)
	} else if !found {
		f.fail(FactSetDocs, "COMMAND DOCS SET", fmt.Errorf("empty reply (COMMAND DOCS unsupported or SET renamed)"))
	} else {
		o.setTokens, o.docsRead = tokens, true
		f.evidence("COMMAND DOCS SET", "condition tokens: "+strings.Join(tokens, " "))
	}
	if cfg, err := parseConfig(vs[5]); err != nil {
		f.fail(FactConfig, "CONFIG GET", err)
	} else {
		f.Config = cfg
		if p, err := strconv.Atoi(cfg["replica-priority"]); err == nil && p >= 0 {
			f.ReplicaPriority = p
		}
		switch cfg["cluster-replica-no-failover"] {
		case "yes":
			f.NoFailover = report.Yes
		case "no":
			f.NoFailover = report.No
		}
		f.evidence("CONFIG GET", describeConfig(cfg))
	}
	if cluster {
		clusterLinks(res, vs[6], vs[7], tls)
	}

}

// clusterLinks reads the node's view of the cluster: every member, its
// role, primary, shard and nofailover flag.
func clusterLinks(res *nodeResult, nodesV, shardsV resp.Value, tls bool) {
	f := &res.facts
	text, err := infoText(nodesV)
	var nodes []clusterNode
	if err == nil {
		nodes, err = parseClusterNodes(text)
	}
	if err != nil {
		f.fail(FactCluster, "CLUSTER NODES", err)
		return
	}
	shardOf, addrOf := map[string]string{}, map[string]string{}
	if shards, err := parseClusterShards(shardsV, tls); err == nil {
		for _, s := range shards {
			for _, n := range s.nodes {
				shardOf[n.id] = s.id
				if n.addr != "" {
					addrOf[n.id] = n.addr
				}
			}
		}
	} // CLUSTER SHARDS is optional (Redis < 7): NODES has what is needed
	for _, n := range nodes {
		if a, ok := addrOf[n.id]; ok {
			n.addr = a
		}
		addrOf[n.id] = n.addr
	}
	var nofail []string
	for _, n := range nodes {
		if n.flags["handshake"] {
			continue // not a member yet
		}
		l := link{addr: addrOf[n.id], role: n.role(), shard: shardOf[n.id], priority: -1, via: "CLUSTER NODES of " + f.Addr}
		if l.shard == "" && n.role() == RolePrimary {
			l.shard = n.id
		}
		if n.primary != "" {
			l.primary = addrOf[n.primary]
			if l.shard == "" {
				l.shard = shardOf[n.primary]
			}
			if l.shard == "" {
				l.shard = n.primary
			}
		}
		l.noFailover = report.No
		if n.flags["nofailover"] {
			l.noFailover = report.Yes
			nofail = append(nofail, n.addr)
		}
		if n.flags["myself"] {
			f.Shard = l.shard
			if f.NoFailover == report.Unknown {
				f.NoFailover = l.noFailover
			}
		}
		if l.addr == "" {
			l.addr = noAddr(n.id)
		}
		res.links = append(res.links, l)
	}
	res.view = true
	f.evidence("CLUSTER NODES", fmt.Sprintf("%d members; nofailover: %s", len(nodes), orNone(nofail)))
}

// noAddr names a cluster member that announces no address.
func noAddr(id string) string {
	if len(id) > 12 {
		id = id[:12]
	}
	return "node " + id + " (no address)"
}

// probeSentinel reads the primaries a Sentinel monitors (all, or the one
// named), their replicas with priorities, and the other Sentinels.
func probeSentinel(ctx context.Context, c *conn, res *nodeResult, master string) {
	f := &res.facts
	v, err := c.send(ctx, "SENTINEL", "MASTERS")
	var masters []map[string]string
	if err == nil {
		masters, err = parseEntries(v)
	}
	if err != nil {
		f.fail(FactSentinel, "SENTINEL MASTERS", err)
		return
	}
	var names []string
	var picked []map[string]string
	for _, m := range masters {
		names = append(names, m["name"])
		if master == "" || m["name"] == master {
			picked = append(picked, m)
		}
	}
	sort.Strings(names)
	if len(picked) == 0 {
		f.fail(FactSentinel, "SENTINEL MASTERS", fmt.Errorf("no primary named %q is monitored (monitored: %s)", master, orNone(names)))
		return
	}
	f.evidence("SENTINEL MASTERS", "monitors "+orNone(names))
	res.replicasRead = map[string]bool{}
	var cmds [][]string
	for _, m := range picked {
		cmds = append(cmds, []string{"SENTINEL", "REPLICAS", m["name"]}, []string{"SENTINEL", "SENTINELS", m["name"]})
	}
	vs, err := c.sendAll(ctx, cmds)
	if err != nil {
		f.fail(FactSentinel, "SENTINEL REPLICAS", err)
	}
	for i, m := range picked {
		maddr, ok := entryAddr(m)
		if !ok {
			f.fail(FactSentinel, "SENTINEL MASTERS", fmt.Errorf("primary %q has no valid address", m["name"]))
			continue
		}
		res.links = append(res.links, link{addr: maddr, role: RolePrimary, master: m["name"], priority: -1, via: "SENTINEL MASTERS of " + f.Addr})
		if vs == nil {
			continue
		}
		reps, err := parseEntries(vs[2*i])
		if err != nil {
			f.fail(FactSentinel, "SENTINEL REPLICAS "+m["name"], err)
		} else {
			res.replicasRead[maddr] = true
			var listed []string
			for _, r := range reps {
				raddr, ok := entryAddr(r)
				if !ok {
					continue
				}
				prio := -1
				if p, err := strconv.Atoi(r["slave-priority"]); err == nil && p >= 0 {
					prio = p
				}
				res.links = append(res.links, link{addr: raddr, role: RoleReplica, primary: maddr, priority: prio, listed: true, via: "SENTINEL REPLICAS " + m["name"] + " of " + f.Addr})
				listed = append(listed, fmt.Sprintf("%s (priority %s, %s)", raddr, r["slave-priority"], r["flags"]))
			}
			f.evidence("SENTINEL REPLICAS "+m["name"], orNone(listed))
		}
		sens, err := parseEntries(vs[2*i+1])
		if err != nil {
			f.fail(FactSentinel, "SENTINEL SENTINELS "+m["name"], err)
			continue
		}
		var others []string
		for _, s := range sens {
			if saddr, ok := entryAddr(s); ok {
				res.links = append(res.links, link{addr: saddr, role: RoleSentinel, priority: -1, via: "SENTINEL SENTINELS of " + f.Addr})
				others = append(others, saddr)
			}
		}
		f.evidence("SENTINEL SENTINELS "+m["name"], orNone(others))
	}
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func describeRole(r roleInfo) string {
	switch r.role {
	case RolePrimary:
		return fmt.Sprintf("primary with %d online replica(s)", len(r.replicas))
	case RoleReplica:
		return "replica of " + r.primary
	}
	return r.role
}

func describeReplication(r replicationInfo) string {
	if r.role == RoleReplica {
		s := fmt.Sprintf("replica of %s, link %s", r.primary, r.linkStatus)
		if r.priority >= 0 {
			s += fmt.Sprintf(", slave_priority %d", r.priority)
		}
		if r.announced == "0" {
			s += ", replica_announced 0"
		}
		return s
	}
	return fmt.Sprintf("primary, connected_slaves %d: %s", r.connected, orNone(r.replicas))
}

func describeConfig(cfg map[string]string) string {
	var parts []string
	for _, p := range configParams {
		if v, ok := cfg[p]; ok {
			parts = append(parts, p+" "+v)
		}
	}
	return strings.Join(parts, ", ")
}

// fail records a fact that could not be read.
func (f *Facts) fail(fact Fact, command string, err error) {
	f.Errors = append(f.Errors, FactError{Fact: fact, Command: command, Reason: explain(err.Error())})
}

func (f *Facts) dropError(fact Fact) {
	kept := f.Errors[:0]
	for _, e := range f.Errors {
		if e.Fact != fact {
			kept = append(kept, e)
		}
	}
	f.Errors = kept
}

func (f *Facts) evidence(command, answer string) {
	f.Evidence = append(f.Evidence, report.Evidence{Command: command, Answer: answer})
}

// explain shortens a server or network error and says what it usually
// means, so a newcomer knows what to do about it.
func explain(msg string) string {
	msg = strings.TrimSpace(msg)
	if i := strings.Index(msg, ", with args beginning with"); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	switch {
	case strings.HasPrefix(msg, "NOPERM"):
		return msg + " (grant the probe user this command; see the README's probe user)"
	case strings.Contains(msg, "unknown command"):
		return msg + " (renamed or disabled on this server)"
	case strings.HasPrefix(msg, "WRONGPASS"), strings.Contains(msg, "invalid password"), strings.HasPrefix(msg, "NOAUTH"):
		return msg + " (check -user and LOCKAUDIT_PASSWORD / -password-file)"
	case strings.Contains(msg, "connection refused"):
		return msg + " (nothing listens there)"
	case strings.Contains(msg, "i/o timeout"), strings.Contains(msg, "no answer"):
		return msg + " (unreachable from here, or not answering)"
	case strings.Contains(msg, "certificate"):
		return msg + " (check -tls-ca and -tls-server-name)"
	}
	return msg
}
