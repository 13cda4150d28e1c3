package probe

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	priority   int           // replica-priority from SENTINEL REPLICAS; -1 unknown
	noFailover report.Answer // from CLUSTER NODES flags
	master     string        // Sentinel: the name it monitors this primary under
	listed     bool          // Sentinel: listed by SENTINEL REPLICAS
	via        string        // where this came from, for evidence
	from       string        // the node whose reply named it ("" for a seed)
	// mode is the mode the naming node implies: "cluster" for a member of
	// a cluster view, "standalone" for a standalone node's replica or
	// primary and for a node a Sentinel monitors; "" when unknown. It
	// decides which cluster commands the node's batch needs.
	mode string
}

// nodeResult is what probing one node yields.
type nodeResult struct {
	facts Facts
	mode  string // standalone, cluster, sentinel; "" when unknown
	runID string
	links []link
	// Sentinel: the primaries whose SENTINEL REPLICAS was read.
	replicasRead map[string]bool
	view         bool   // a cluster view was read
	overflow     string // the node announced more than MaxNodes nodes
}

// probeNode reads every fact of one node: after the connection's
// handshake, a data node in one pipelined round trip (probeData), a
// Sentinel in one, or two when it monitors several primaries
// (probeSentinel). It never returns an error: what could not be read is
// recorded in the facts.
//
// wantView asks a cluster node for its view of the cluster (CLUSTER
// NODES/SHARDS); one view names every member, so only seeds are asked
// unless no view has been read yet. hint is what named the node: named as
// a Sentinel (-sentinel, SENTINEL SENTINELS) it is first asked what a
// Sentinel is asked; its mode (link.mode) says which cluster commands a
// data node's batch needs. announce, when set, starts the probes of the nodes a reply
// names while this node is still being read (view: the names come from a
// cluster view).
func probeNode(ctx context.Context, d *dialer, addr, master string, hint link, wantView func() bool, announce func(links []link, view bool)) nodeResult {
	res := nodeResult{facts: newFacts(addr)}
	c, err := d.dial(ctx, addr)
	if err != nil {
		res.facts.fail(FactConnect, "", err)
		return res
	}
	defer c.close()
	if hint.role == RoleSentinel && probeSentinel(ctx, c, &res, master, true, announce) {
		return res
	}
	// A data node (or a node named as a Sentinel that answered as one).
	probeData(ctx, c, &res, d.tls != nil, hint.mode, wantView, announce)
	if res.mode == "sentinel" {
		probeSentinel(ctx, c, &res, master, false, announce)
	}
	return res
}

// The data-node batch, in order: TIME first (see probeData), then one INFO
// with every section the probe reads (servers before Redis 7.0 take one
// section at a time: readInfo then asks for each).
var (
	infoSections = []string{"server", "replication", "scriptingengines"}
	dataBatch    = [][]string{
		{"TIME"},
		append([]string{"INFO"}, infoSections...),
		{"ROLE"},
		commandInfo,
		{"COMMAND", "DOCS", "SET"},
		append([]string{"CONFIG", "GET"}, configParams...),
	}
)

// batchFacts are the facts the batch reads, for when it fails as a whole.
var batchFacts = []struct {
	fact    Fact
	command string
}{
	{FactTime, "TIME"}, {FactServer, "INFO server"}, {FactRole, "ROLE"}, {FactReplication, "INFO replication"},
	{FactLua, "INFO scriptingengines"}, {FactCommands, strings.Join(commandInfo, " ")}, {FactSetDocs, "COMMAND DOCS SET"}, {FactConfig, "CONFIG GET"},
}

// infoPart is an INFO section's text, or why it could not be read.
type infoPart struct {
	text string
	err  error
}

// readInfo splits the batch's INFO reply into its sections. When the
// server refused several sections at once for any reason but a permission
// (Redis before 7.0 answers a syntax error), each is asked for alone.
func readInfo(ctx context.Context, c *conn, v resp.Value) map[string]infoPart {
	out := map[string]infoPart{}
	text, err := infoText(v)
	if err != nil && v.Kind == resp.Err && !strings.HasPrefix(v.Str, "NOPERM") {
		var single [][]string
		for _, s := range infoSections {
			single = append(single, []string{"INFO", s})
		}
		vs, serr := c.sendAll(ctx, single)
		for i, s := range infoSections {
			if serr != nil {
				out[s] = infoPart{err: serr}
				continue
			}
			t, e := infoText(vs[i])
			out[s] = infoPart{t, e}
		}
		return out
	}
	if err != nil {
		for _, s := range infoSections {
			out[s] = infoPart{err: err}
		}
		return out
	}
	parts := infoBySection(text)
	for _, s := range infoSections {
		out[s] = infoPart{text: parts[s]} // a section the server does not have is empty, as when asked alone
		if len(parts) == 0 {
			out[s] = infoPart{text: text} // no section headers: every parser reads it all
		}
	}
	return out
}

// infoBySection splits INFO text into its sections ("# Server" ...), by
// name in lower case without spaces (as INFO takes it: "# Scripting
// Engines" is scriptingengines), so that each parser reads its own.
func infoBySection(text string) map[string]string {
	out := map[string]string{}
	name, start := "", 0
	for i := 0; i <= len(text); {
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text) - i
		}
		line := text[i : i+end]
		if strings.HasPrefix(line, "# ") {
			if name != "" {
				out[name] += text[start:i]
			}
			name, start = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(line[2:]), " ", "")), i // "# Scripting Engines"
		}
		i += end + 1
	}
	if name != "" {
		out[name] += text[start:]
	}
	return out
}

// readServer records INFO server's answer: flavor, version, mode, run ID.
func readServer(res *nodeResult, p infoPart) {
	f := &res.facts
	si, err := parseServerPart(p)
	if err != nil {
		f.fail(FactServer, "INFO server", err)
		return
	}
	f.Version, res.mode, res.runID = si.version, si.mode, si.runID
	f.evidence("INFO server", fmt.Sprintf("%s, mode %s", serverName(si.version), si.mode))
}

func parseServerPart(p infoPart) (serverInfo, error) {
	if p.err != nil {
		return serverInfo{}, p.err
	}
	return parseInfoServer(p.text)
}

// probeData reads a data node (standalone or cluster) in one round trip.
// TIME goes first in the batch, so the server reads its clock half a round
// trip after the batch was sent: the round trip measured on the handshake,
// a small reply on the same connection. What the batch asks of the cluster
// depends on the mode the node was named with (hint): a node named by a
// standalone node or a Sentinel is asked nothing; a cluster member is
// asked for its view of the cluster when wantView says so; a node of
// unknown mode (a seed) is asked for the view when wantView says so (a
// standalone node answers that cluster support is disabled), else for
// CLUSTER MYID, whose answer tells a cluster from a standalone node when
// INFO server is refused. A Sentinel (INFO server's mode) is left to
// probeSentinel.
func probeData(ctx context.Context, c *conn, res *nodeResult, tls bool, hint string, wantView func() bool, announce func([]link, bool)) {
	f := &res.facts
	o := &f.seen
	cmds := append([][]string(nil), dataBatch...)
	view, myid := false, false
	switch {
	case hint == "standalone":
	case wantView():
		view = true
		cmds = append(cmds, []string{"CLUSTER", "NODES"}, []string{"CLUSTER", "SHARDS"})
	case hint == "":
		myid = true
		cmds = append(cmds, []string{"CLUSTER", "MYID"})
	}
	sent := time.Now()
	vs, err := c.sendAll(ctx, cmds)
	received := time.Now()
	if err != nil {
		for _, b := range batchFacts {
			f.fail(b.fact, b.command, err)
		}
		return
	}
	info := readInfo(ctx, c, vs[1])
	readServer(res, info["server"])
	if res.mode == "sentinel" {
		return
	}
	if res.mode == "" && hint != "" {
		res.mode = hint // INFO server unread: the mode the node was named with
	}
	rest := vs[len(dataBatch):]
	switch {
	case view && (res.mode == "cluster" || res.mode == "") && clusterDisabled(rest[0]) && clusterDisabled(rest[1]):
		res.mode = "standalone"
	case view && res.mode == "" && rest[0].Kind == resp.Err && rest[1].Kind == resp.Err:
		// Neither the mode nor the members can be told.
		f.fail(FactCluster, "CLUSTER NODES", asError(rest[0]))
		f.fail(FactCluster, "CLUSTER SHARDS", asError(rest[1]))
	case view && (res.mode == "cluster" || res.mode == ""):
		// The members first: their probes start while this node is read.
		res.mode = "cluster"
		clusterLinks(ctx, c, res, rest[0], rest[1], tls)
		if announce != nil && res.view {
			announce(res.links, true)
			res.links = nil
		}
	case myid && res.mode == "" && clusterDisabled(rest[0]):
		res.mode = "standalone"
	case myid && res.mode == "" && rest[0].Kind == resp.Err:
		f.fail(FactCluster, "CLUSTER MYID", asError(rest[0]))
	case myid && res.mode == "":
		res.mode = "cluster"
	}

	if t, err := parseTime(vs[0]); err != nil {
		f.fail(FactTime, "TIME", err)
	} else {
		rtt := c.rtt
		if rtt <= 0 { // no handshake was timed: the batch's own round trip bounds it
			rtt = received.Sub(sent)
		}
		f.Clock = &Clock{Offset: t.Sub(sent.Add(rtt / 2)), RTT: rtt}
		f.evidence("TIME", fmt.Sprintf("offset %s from the local clock, round trip %s", f.Clock.Offset.Round(time.Microsecond), rtt.Round(time.Microsecond)))
	}
	readRole(res, c.addr, vs[2], info["replication"])
	var sc scripting
	err = info["scriptingengines"].err
	if err == nil {
		sc, err = parseInfoScripting(info["scriptingengines"].text)
	}
	if err != nil {
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
}

// clusterDisabled reports the error a node without cluster mode answers
// to CLUSTER commands.
func clusterDisabled(v resp.Value) bool {
	return v.Kind == resp.Err && strings.Contains(v.Str, "cluster support disabled")
}

// readRole reads the node's role and replicas from ROLE and INFO
// replication, and cross-checks them: each fills in what the other could
// not be read for, a disagreement about the role leaves it unknown (the
// node changed role while it was read), and the replicas either lists are
// all followed.
func readRole(res *nodeResult, addr string, roleV resp.Value, repl infoPart) {
	f := &res.facts
	role, roleErr := parseRole(roleV)
	if roleErr != nil {
		f.fail(FactRole, "ROLE", roleErr)
	} else {
		f.Role, f.Primary = role.role, role.primary
		if role.role == RolePrimary {
			f.Replicas = len(role.replicas) // ROLE lists online replicas; INFO below lists all
		}
		for _, r := range role.replicas {
			res.links = append(res.links, link{addr: r, role: RoleReplica, primary: addr, priority: -1, via: "ROLE of " + addr, mode: res.mode})
		}
		f.evidence("ROLE", describeRole(role))
	}
	var ri replicationInfo
	err := repl.err
	if err == nil {
		ri, err = parseInfoReplication(repl.text)
	}
	if err != nil {
		f.fail(FactReplication, "INFO replication", err)
	} else {
		switch {
		case roleErr != nil:
			f.Role, f.Primary = ri.role, ri.primary
			f.dropError(FactRole) // INFO replication answered it
		case ri.role != role.role || ri.primary != role.primary:
			f.fail(FactRole, "ROLE", fmt.Errorf("ROLE says %s but INFO replication says %s: the node changed role while it was read", describeRole(role), describeReplication(ri)))
			f.Role, f.Primary = RoleUnknown, ""
		}
		if ri.role == RoleReplica {
			f.seen.link = &replicaLink{status: ri.linkStatus, downSince: ri.downSince, syncing: ri.syncing}
		}
		f.Replicas = max(ri.connected, len(ri.replicas))
		if ri.priority >= 0 {
			f.ReplicaPriority = ri.priority
		}
		for _, r := range ri.replicas {
			res.links = append(res.links, link{addr: r, role: RoleReplica, primary: addr, priority: -1, via: "INFO replication of " + addr, mode: res.mode})
		}
		if roleErr == nil {
			for _, r := range role.replicas {
				if !slices.Contains(ri.replicas, r) {
					f.Notes = append(f.Notes, "ROLE lists replica "+r+", INFO replication does not (both are followed)")
				}
			}
		}
		f.evidence("INFO replication", describeReplication(ri))
	}
	if f.Role == RoleReplica && f.Primary != "" {
		res.links = append(res.links, link{addr: f.Primary, priority: -1, via: "primary of " + addr, mode: res.mode})
	}
}

// clusterLinks reads the node's view of the cluster from CLUSTER NODES and
// CLUSTER SHARDS: every member, its role, primary, shard and nofailover
// flag. Either list names every member, so either is enough; both are
// cross-checked and their union followed. When neither can be read,
// CLUSTER SLOTS still finds the nodes that serve slots (and healthy
// replicas), but that list is not complete.
func clusterLinks(ctx context.Context, c *conn, res *nodeResult, nodesV, shardsV resp.Value, tls bool) {
	f := &res.facts
	text, nodesErr := infoText(nodesV)
	var nodes []clusterNode
	if nodesErr == nil {
		nodes, nodesErr = parseClusterNodes(text)
	}
	shards, shardsErr := parseClusterShards(shardsV, tls)
	for _, err := range []error{nodesErr, shardsErr} {
		if errors.Is(err, errTooManyNodes) {
			res.overflow = "the cluster announces more than " + strconv.Itoa(MaxNodes) + " members (read on " + f.Addr + ")"
			f.fail(FactCluster, "CLUSTER NODES", err)
			return
		}
	}
	if nodesErr != nil && shardsErr != nil {
		f.fail(FactCluster, "CLUSTER NODES", nodesErr)
		f.fail(FactCluster, "CLUSTER SHARDS", shardsErr)
		slotLinks(ctx, c, res)
		return
	}
	if nodesErr != nil {
		f.fail(FactCluster, "CLUSTER NODES", nodesErr) // SHARDS has the members, not the nofailover flags
	}

	// Member ID -> what the lists say about it.
	type member struct {
		addr, shard, primary, role string
		nofail                     report.Answer
		inNodes, inShards, myself  bool
	}
	members := map[string]*member{}
	var ids []string
	get := func(id string) *member {
		m, ok := members[id]
		if !ok {
			m = &member{}
			members[id] = m
			ids = append(ids, id)
		}
		return m
	}
	for _, s := range shards {
		for _, n := range s.nodes {
			m := get(n.id)
			m.inShards, m.shard, m.addr = true, s.id, n.addr
			switch n.role {
			case "master":
				m.role = RolePrimary
			case "replica":
				m.role = RoleReplica
				for _, p := range s.nodes {
					if p.role == "master" {
						m.primary = p.id
					}
				}
			}
		}
	}
	var nofail []string
	for _, n := range nodes {
		if n.flags["handshake"] {
			continue // not a member yet
		}
		m := get(n.id)
		m.inNodes, m.myself = true, n.flags["myself"]
		if m.addr == "" {
			m.addr = n.addr
		}
		if r := n.role(); r != RoleUnknown {
			m.role = r
		}
		if n.primary != "" {
			m.primary = n.primary
		}
		m.nofail = report.No
		if n.flags["nofailover"] {
			m.nofail = report.Yes
			nofail = append(nofail, n.addr)
		}
	}
	var onlyNodes, onlyShards []string
	for _, id := range ids {
		m := members[id]
		if nodesErr == nil && shardsErr == nil && m.inNodes != m.inShards {
			name := orNone([]string{m.addr})
			if m.inNodes {
				onlyNodes = append(onlyNodes, name)
			} else {
				onlyShards = append(onlyShards, name)
			}
		}
	}
	if len(onlyNodes)+len(onlyShards) > 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("CLUSTER NODES and CLUSTER SHARDS disagree (only in NODES: %s; only in SHARDS: %s); every member of either is probed", orNone(onlyNodes), orNone(onlyShards)))
	}
	for _, id := range ids {
		m := members[id]
		l := link{addr: m.addr, role: m.role, shard: m.shard, priority: -1, noFailover: m.nofail, via: "CLUSTER NODES of " + f.Addr, mode: "cluster"}
		if nodesErr != nil {
			l.via = "CLUSTER SHARDS of " + f.Addr
		}
		if l.shard == "" && m.role == RolePrimary {
			l.shard = id
		}
		if m.primary != "" {
			if p, ok := members[m.primary]; ok {
				l.primary = p.addr
				if l.shard == "" {
					l.shard = p.shard
				}
			}
			if l.shard == "" {
				l.shard = m.primary
			}
		}
		if m.myself || (l.addr != "" && l.addr == f.Addr) {
			f.Shard = l.shard
			if f.NoFailover == report.Unknown && l.noFailover != report.Unknown {
				f.NoFailover = l.noFailover
			}
		}
		if l.addr == "" {
			l.addr = noAddr(id)
		}
		res.links = append(res.links, l)
	}
	res.view = true
	f.ClusterView = true
	if nodesErr == nil {
		f.evidence("CLUSTER NODES", fmt.Sprintf("%d members; nofailover: %s", len(nodes), orNone(nofail)))
	}
	if shardsErr == nil {
		f.evidence("CLUSTER SHARDS", fmt.Sprintf("%d shards", len(shards)))
	}
}

// slotLinks follows CLUSTER SLOTS when neither member list could be read.
func slotLinks(ctx context.Context, c *conn, res *nodeResult) {
	f := &res.facts
	v, err := c.send(ctx, "CLUSTER", "SLOTS")
	var ranges []slotRange
	if err == nil {
		ranges, err = parseClusterSlots(v)
	}
	if errors.Is(err, errTooManyNodes) {
		res.overflow = "the cluster announces more than " + strconv.Itoa(MaxNodes) + " members (read on " + f.Addr + ")"
	}
	if err != nil {
		f.evidence("CLUSTER SLOTS", "unreadable: "+explain(err.Error()))
		return
	}
	seen := map[string]bool{}
	var found []string
	for _, r := range ranges {
		for i, a := range r.nodes {
			if a == "" || seen[a] {
				continue
			}
			seen[a] = true
			found = append(found, a)
			l := link{addr: a, role: RolePrimary, priority: -1, via: "CLUSTER SLOTS of " + f.Addr, mode: "cluster"}
			if i > 0 {
				l.role, l.primary = RoleReplica, r.nodes[0]
			}
			res.links = append(res.links, l)
		}
	}
	f.evidence("CLUSTER SLOTS", fmt.Sprintf("%d nodes serve slots (members that serve none, and failed replicas, are not listed): %s", len(found), orNone(found)))
}

// noAddr names a cluster member that announces no address.
func noAddr(id string) string {
	if len(id) > 12 {
		id = id[:12]
	}
	return "node " + id + " (no address)"
}

// probeSentinel reads the primaries a Sentinel monitors (all, or the one
// named), their replicas with priorities, and the other Sentinels: in one
// round trip when the primary is named (-master), else in two, and the
// probes of the primaries start after the first. askMode sends INFO server
// in the first batch: a node named as a Sentinel that turns out to be a
// data node is left to probeData (false).
func probeSentinel(ctx context.Context, c *conn, res *nodeResult, master string, askMode bool, announce func([]link, bool)) bool {
	f := &res.facts
	var cmds [][]string
	if askMode {
		cmds = append(cmds, []string{"INFO", "server"})
	}
	cmds = append(cmds, []string{"SENTINEL", "MASTERS"})
	if master != "" {
		cmds = append(cmds, []string{"SENTINEL", "REPLICAS", master}, []string{"SENTINEL", "SENTINELS", master})
	}
	vs, err := c.sendAll(ctx, cmds)
	if err != nil {
		if askMode {
			f.fail(FactServer, "INFO server", err)
		}
		f.fail(FactSentinel, "SENTINEL MASTERS", err)
		return true
	}
	if askMode {
		text, err := infoText(vs[0])
		si, serr := parseServerPart(infoPart{text, err})
		if serr == nil && si.mode != "sentinel" {
			return false // a data node: probeData reads it
		}
		if serr != nil && vs[1].Kind == resp.Err {
			return false // neither a readable mode nor a Sentinel's answer
		}
		readServer(res, infoPart{text, err})
		vs = vs[1:]
	}
	res.mode = "sentinel"
	f.Role = RoleSentinel
	masters, err := parseEntries(vs[0])
	if err != nil {
		f.fail(FactSentinel, "SENTINEL MASTERS", err)
		return true
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
		return true
	}
	f.evidence("SENTINEL MASTERS", "monitors "+orNone(names))
	res.replicasRead = map[string]bool{}
	addrs := make([]string, len(picked))
	var primaries []link
	for i, m := range picked {
		maddr, ok := entryAddr(m)
		if !ok {
			f.fail(FactSentinel, "SENTINEL MASTERS", fmt.Errorf("primary %q has no valid address", m["name"]))
			continue
		}
		addrs[i] = maddr
		primaries = append(primaries, link{addr: maddr, role: RolePrimary, master: m["name"], priority: -1, via: "SENTINEL MASTERS of " + f.Addr, mode: "standalone"})
	}
	var lists []resp.Value // SENTINEL REPLICAS and SENTINELS of each picked primary
	if master != "" {
		lists = vs[1:]
		res.links = append(res.links, primaries...)
	} else {
		if announce != nil { // the primaries are probed while their lists are read
			announce(primaries, false)
		} else {
			res.links = append(res.links, primaries...)
		}
		cmds = nil
		for _, m := range picked {
			cmds = append(cmds, []string{"SENTINEL", "REPLICAS", m["name"]}, []string{"SENTINEL", "SENTINELS", m["name"]})
		}
		if lists, err = c.sendAll(ctx, cmds); err != nil {
			f.fail(FactSentinel, "SENTINEL REPLICAS", err)
			return true
		}
	}
	for i, m := range picked {
		maddr := addrs[i]
		if maddr == "" {
			continue
		}
		reps, err := parseEntries(lists[2*i])
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
				res.links = append(res.links, link{addr: raddr, role: RoleReplica, primary: maddr, priority: prio, listed: true, via: "SENTINEL REPLICAS " + m["name"] + " of " + f.Addr, mode: "standalone"})
				listed = append(listed, fmt.Sprintf("%s (priority %s, %s)", raddr, r["slave-priority"], r["flags"]))
			}
			f.evidence("SENTINEL REPLICAS "+m["name"], orNone(listed))
		}
		sens, err := parseEntries(lists[2*i+1])
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
	return true
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
		return "primary with " + report.Plural(len(r.replicas), "online replica")
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

// fail records a fact that could not be read. A refusal by ACL names the
// permission that would let the probe read it.
func (f *Facts) fail(fact Fact, command string, err error) {
	reason := explain(err.Error())
	if strings.HasPrefix(reason, "NOPERM") {
		reason += " (grant the probe user " + permission(command, err.Error()) + " on this node)"
	}
	f.Errors = append(f.Errors, FactError{Fact: fact, Command: command, Reason: reason})
}

// permission names the ACL permission a command needs: from the server's
// NOPERM message ("... to run the 'config|get' command"), else from the
// command sent.
func permission(command, msg string) string {
	if _, rest, ok := strings.Cut(msg, "to run the '"); ok {
		if name, _, ok := strings.Cut(rest, "'"); ok && name != "" && !strings.ContainsAny(name, " \t") {
			return "+" + strings.ToLower(name)
		}
	}
	words := strings.Fields(strings.ToLower(command))
	switch {
	case len(words) == 0:
		return "the command"
	case len(words) > 1 && (words[0] == "command" || words[0] == "config" || words[0] == "cluster" || words[0] == "sentinel"):
		return "+" + words[0] + "|" + words[1]
	}
	return "+" + words[0]
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
