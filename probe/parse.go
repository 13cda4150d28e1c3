package probe

// Pure parsers for every reply the probe reads. Each takes a resp.Value (or
// INFO text) in either RESP2 or RESP3 shape and never panics: a reply of an
// unexpected shape is an error that names what was wrong. They are tested
// on replies recorded from real servers of each version
// (testdata/replies) and fuzzed (testdata/fuzz).

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/rules"
)

// replyError is a server's error reply ("NOPERM ...", "ERR unknown command").
type replyError string

func (e replyError) Error() string { return string(e) }

// asError turns an error reply into an error, so parsers report it as the
// reason the fact could not be read.
func asError(v resp.Value) error {
	if v.Kind == resp.Err {
		return replyError(v.Str)
	}
	return nil
}

func shapeError(what string, v resp.Value) error {
	s := v.String()
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Errorf("unexpected %s reply: %s", what, s)
}

// infoText returns the text of an INFO reply.
func infoText(v resp.Value) (string, error) {
	if err := asError(v); err != nil {
		return "", err
	}
	s, ok := v.Text()
	if !ok {
		return "", shapeError("INFO", v)
	}
	return s, nil
}

// serverInfo is what INFO server tells.
type serverInfo struct {
	version rules.Version
	mode    string // standalone, cluster, sentinel
	runID   string
}

// parseInfoServer reads flavor and version (valkey_version/server_name;
// Redis has neither, and redis_version is frozen at 7.2.4 on Valkey), the
// mode and the run ID.
func parseInfoServer(text string) (serverInfo, error) {
	m := resp.InfoFields(text)
	var si serverInfo
	var err error
	switch {
	case m["valkey_version"] != "":
		si.version, err = rules.ParseVersion(rules.Valkey, m["valkey_version"])
	case m["server_name"] != "" && m["server_name"] != "redis":
		return si, fmt.Errorf("unknown server_name %q", m["server_name"])
	case m["redis_version"] != "":
		si.version, err = rules.ParseVersion(rules.Redis, m["redis_version"])
	default:
		return si, fmt.Errorf("INFO server has no valkey_version or redis_version")
	}
	if err != nil {
		return serverInfo{}, err
	}
	si.mode = m["server_mode"]
	if si.mode == "" {
		si.mode = m["redis_mode"]
	}
	si.runID = m["run_id"]
	return si, nil
}

// replicationInfo is what INFO replication tells.
type replicationInfo struct {
	role       string   // RolePrimary or RoleReplica
	primary    string   // a replica's primary, host:port
	replicas   []string // a primary's replicas (slaveN lines), host:port
	connected  int      // connected_slaves
	priority   int      // slave_priority, -1 when absent
	announced  string   // replica_announced: "1", "0" or ""
	linkStatus string   // master_link_status
	// downSince is master_link_down_since_seconds: how long the link has
	// been down, -1 when it was never up (or the field is absent).
	downSince int
	syncing   bool // master_sync_in_progress:1
}

// parseInfoReplication reads INFO replication; its errors do not repeat
// the section name, which the caller records with them.
func parseInfoReplication(text string) (replicationInfo, error) {
	m := resp.InfoFields(text)
	ri := replicationInfo{priority: -1, announced: m["replica_announced"], linkStatus: m["master_link_status"], downSince: -1, syncing: m["master_sync_in_progress"] == "1"}
	if d, err := strconv.Atoi(m["master_link_down_since_seconds"]); err == nil && d >= 0 {
		ri.downSince = d
	}
	switch m["role"] {
	case "master":
		ri.role = RolePrimary
	case "slave":
		ri.role = RoleReplica
		port, err := strconv.Atoi(m["master_port"])
		if err != nil || port <= 0 || port > 65535 || m["master_host"] == "" {
			return ri, fmt.Errorf("a replica without a valid master_host/master_port (%q, %q)", m["master_host"], m["master_port"])
		}
		ri.primary = hostPort(m["master_host"], port)
		if ri.primary == "" {
			return ri, fmt.Errorf("master_host %q is not a host", m["master_host"])
		}
	default:
		return ri, fmt.Errorf("unknown role %q", m["role"])
	}
	if n, err := strconv.Atoi(m["connected_slaves"]); err == nil && n >= 0 {
		ri.connected = n
	}
	if p, err := strconv.Atoi(m["slave_priority"]); err == nil && p >= 0 {
		ri.priority = p
	}
	for i := 0; ; i++ {
		line, ok := m["slave"+strconv.Itoa(i)]
		if !ok {
			break
		}
		kv := map[string]string{}
		for _, part := range strings.Split(line, ",") {
			if k, v, ok := strings.Cut(part, "="); ok {
				kv[k] = v
			}
		}
		port, err := strconv.Atoi(kv["port"])
		if err != nil || port <= 0 || port > 65535 || kv["ip"] == "" {
			return ri, fmt.Errorf("malformed slave%d line %q", i, line)
		}
		addr := hostPort(kv["ip"], port)
		if addr == "" {
			return ri, fmt.Errorf("malformed slave%d line %q", i, line)
		}
		ri.replicas = append(ri.replicas, addr)
	}
	return ri, nil
}

// scripting is what INFO scriptingengines tells (Valkey 9.1+).
type scripting struct {
	present bool     // the section exists (absent before 9.1: Lua built in)
	engines int      // engines_count
	names   []string // engine names, e.g. LUA
}

func parseInfoScripting(text string) (scripting, error) {
	m := resp.InfoFields(text)
	count, ok := m["engines_count"]
	if !ok {
		return scripting{}, nil
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 {
		return scripting{}, fmt.Errorf("INFO scriptingengines: bad engines_count %q", count)
	}
	sc := scripting{present: true, engines: n}
	for i := 0; i < n && i < 1000; i++ {
		for _, part := range strings.Split(m["engine_"+strconv.Itoa(i)], ",") {
			if k, v, ok := strings.Cut(part, "="); ok && k == "name" {
				sc.names = append(sc.names, v)
			}
		}
	}
	return sc, nil
}

// hasEngine reports whether an engine of that name (case-insensitive) is
// loaded.
func (s scripting) hasEngine(name string) bool {
	for _, n := range s.names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// roleInfo is what ROLE tells.
type roleInfo struct {
	role     string   // RolePrimary, RoleReplica or RoleSentinel
	primary  string   // a replica's primary
	replicas []string // a primary's online replicas
	masters  []string // a Sentinel's monitored primaries, by name
}

func parseRole(v resp.Value) (roleInfo, error) {
	if err := asError(v); err != nil {
		return roleInfo{}, err
	}
	if v.Kind != resp.Array || len(v.Elems) == 0 {
		return roleInfo{}, shapeError("ROLE", v)
	}
	kind, _ := v.Elems[0].Text()
	switch kind {
	case "master":
		ri := roleInfo{role: RolePrimary}
		if len(v.Elems) >= 3 && v.Elems[2].Kind == resp.Array {
			for _, r := range v.Elems[2].Elems {
				if r.Kind != resp.Array || len(r.Elems) < 2 {
					return roleInfo{}, shapeError("ROLE replica entry", r)
				}
				host, _ := r.Elems[0].Text()
				port, ok := intOf(r.Elems[1])
				addr := hostPort(host, port)
				if !ok || addr == "" {
					return roleInfo{}, shapeError("ROLE replica entry", r)
				}
				ri.replicas = append(ri.replicas, addr)
			}
		}
		return ri, nil
	case "slave":
		if len(v.Elems) < 3 {
			return roleInfo{}, shapeError("ROLE", v)
		}
		host, _ := v.Elems[1].Text()
		port, ok := intOf(v.Elems[2])
		addr := hostPort(host, port)
		if !ok || addr == "" {
			return roleInfo{}, shapeError("ROLE", v)
		}
		return roleInfo{role: RoleReplica, primary: addr}, nil
	case "sentinel":
		ri := roleInfo{role: RoleSentinel}
		if len(v.Elems) >= 2 {
			for _, m := range v.Elems[1].Elems {
				if s, ok := m.Text(); ok {
					ri.masters = append(ri.masters, s)
				}
			}
		}
		return ri, nil
	}
	return roleInfo{}, shapeError("ROLE", v)
}

// intOf reads an integer sent as an integer or as a decimal string, as a
// port (1..65535).
func intOf(v resp.Value) (int, bool) {
	var n int64
	switch v.Kind {
	case resp.Int:
		n = v.Int
	case resp.Str:
		x, err := strconv.ParseInt(v.Str, 10, 64)
		if err != nil {
			return 0, false
		}
		n = x
	default:
		return 0, false
	}
	if n <= 0 || n > 65535 {
		return 0, false
	}
	return int(n), true
}

// parseCommandInfo reads COMMAND INFO name...: for each requested name,
// whether the server knows the command (a nil or empty entry: unknown).
func parseCommandInfo(v resp.Value, names []string) (map[string]bool, error) {
	if err := asError(v); err != nil {
		return nil, err
	}
	if v.Kind != resp.Array || len(v.Elems) != len(names) {
		return nil, shapeError("COMMAND INFO", v)
	}
	out := map[string]bool{}
	for i, e := range v.Elems {
		name := strings.ToLower(names[i])
		switch {
		case e.Kind == resp.Nil || (e.Kind == resp.Array && len(e.Elems) == 0):
			out[name] = false
		case e.Kind == resp.Array:
			got, _ := e.Elems[0].Text()
			if !strings.EqualFold(got, name) {
				return nil, fmt.Errorf("COMMAND INFO: entry %d is %q, want %q", i, got, name)
			}
			out[name] = true
		default:
			return nil, shapeError("COMMAND INFO entry", e)
		}
	}
	return out, nil
}

// parseSetConditions walks COMMAND DOCS SET to the argument named
// "condition" (type oneof) and returns the tokens it offers (NX, XX, and
// IFEQ from Valkey 8.1). The string "IFEQ" also appears in SET's history,
// so the reply is never searched as text. found is false when the server
// returned no docs for SET.
func parseSetConditions(v resp.Value) (tokens []string, found bool, err error) {
	if err := asError(v); err != nil {
		return nil, false, err
	}
	pairs, ok := v.Pairs()
	if !ok {
		return nil, false, shapeError("COMMAND DOCS", v)
	}
	if len(pairs) == 0 {
		return nil, false, nil // unknown command: empty reply
	}
	doc, ok := v.Field("set")
	if !ok {
		return nil, false, fmt.Errorf("COMMAND DOCS SET: no entry for set")
	}
	args, ok := doc.Field("arguments")
	if !ok || args.Kind != resp.Array {
		return nil, false, fmt.Errorf("COMMAND DOCS SET: no argument list")
	}
	for _, a := range args.Elems {
		name, _ := a.Field("name")
		typ, _ := a.Field("type")
		if name.Str != "condition" || typ.Str != "oneof" {
			continue
		}
		sub, ok := a.Field("arguments")
		if !ok || sub.Kind != resp.Array {
			return nil, false, fmt.Errorf("COMMAND DOCS SET: condition has no arguments")
		}
		tokens = []string{}
		collectTokens(sub, &tokens, 0)
		return tokens, true, nil
	}
	return []string{}, true, nil // no condition argument: no IFEQ
}

// collectTokens gathers the tokens of a oneof's alternatives, looking into
// nested blocks (Redis 8.4 nests some).
func collectTokens(args resp.Value, out *[]string, depth int) {
	if depth > 4 {
		return
	}
	for _, a := range args.Elems {
		if tok, ok := a.Field("token"); ok {
			if s, ok := tok.Text(); ok {
				*out = append(*out, strings.ToUpper(s))
			}
		}
		if sub, ok := a.Field("arguments"); ok && sub.Kind == resp.Array {
			collectTokens(sub, out, depth+1)
		}
	}
}

// parseConfig reads a CONFIG GET reply into parameter → value.
func parseConfig(v resp.Value) (map[string]string, error) {
	if err := asError(v); err != nil {
		return nil, err
	}
	pairs, ok := v.Pairs()
	if !ok {
		return nil, shapeError("CONFIG GET", v)
	}
	out := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		k, ok1 := pairs[i].Text()
		val, ok2 := pairs[i+1].Text()
		if !ok1 || !ok2 {
			return nil, shapeError("CONFIG GET entry", pairs[i])
		}
		out[strings.ToLower(k)] = val
	}
	return out, nil
}

// parseTime reads TIME: [seconds, microseconds] as strings (integers
// accepted too).
func parseTime(v resp.Value) (time.Time, error) {
	if err := asError(v); err != nil {
		return time.Time{}, err
	}
	if v.Kind != resp.Array || len(v.Elems) != 2 {
		return time.Time{}, shapeError("TIME", v)
	}
	var n [2]int64
	for i, e := range v.Elems {
		switch e.Kind {
		case resp.Int:
			n[i] = e.Int
		case resp.Str:
			x, err := strconv.ParseInt(e.Str, 10, 64)
			if err != nil {
				return time.Time{}, shapeError("TIME", v)
			}
			n[i] = x
		default:
			return time.Time{}, shapeError("TIME", v)
		}
	}
	if n[0] < 0 || n[0] > 1<<40 || n[1] < 0 || n[1] >= 1_000_000 {
		return time.Time{}, shapeError("TIME", v)
	}
	return time.Unix(n[0], n[1]*1000), nil
}

// clusterNode is one line of CLUSTER NODES.
type clusterNode struct {
	id       string
	addr     string // host:port clients use; "" when the node has none
	flags    map[string]bool
	primary  string // primary's node ID, for replicas
	linkUp   bool
	hostname string
}

func (n clusterNode) role() string {
	switch {
	case n.flags["master"]:
		return RolePrimary
	case n.flags["slave"]:
		return RoleReplica
	}
	return RoleUnknown
}

// errTooManyNodes is a member list longer than MaxNodes: refused before it
// is read, so memory stays flat however many members a node announces.
var errTooManyNodes = fmt.Errorf("more than %d members (the probe's limit of nodes)", MaxNodes)

// parseClusterNodes reads CLUSTER NODES:
// `id ip:port@cport[,hostname] flags primary ping pong epoch link slots...`.
func parseClusterNodes(text string) ([]clusterNode, error) {
	if strings.Count(text, "\n") > MaxNodes {
		return nil, errTooManyNodes
	}
	var out []clusterNode
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 8 {
			return nil, fmt.Errorf("CLUSTER NODES line %d: %d fields, want at least 8: %q", i+1, len(f), line)
		}
		n := clusterNode{id: f[0], flags: map[string]bool{}, linkUp: f[7] == "connected"}
		for _, fl := range strings.Split(f[2], ",") {
			n.flags[fl] = true
		}
		if f[3] != "-" {
			n.primary = f[3]
		}
		addr := f[1]
		if j := strings.IndexByte(addr, ','); j >= 0 {
			n.hostname = addr[j+1:]
			addr = addr[:j]
		}
		if j := strings.IndexByte(addr, '@'); j >= 0 {
			addr = addr[:j]
		}
		if j := strings.LastIndexByte(addr, ':'); j >= 0 && !n.flags["noaddr"] {
			if port, err := strconv.Atoi(addr[j+1:]); err == nil {
				n.addr = hostPort(addr[:j], port)
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// shardNode is one node entry of CLUSTER SHARDS.
type shardNode struct {
	id, addr, role, health string
}

// shard is one CLUSTER SHARDS entry. id is the shard ID (Valkey 9.0+) or,
// on older servers, its primary's node ID.
type shard struct {
	id    string
	nodes []shardNode
}

// parseClusterShards reads CLUSTER SHARDS; with tls, nodes are addressed by
// their tls-port.
func parseClusterShards(v resp.Value, tls bool) ([]shard, error) {
	if err := asError(v); err != nil {
		return nil, err
	}
	if v.Kind != resp.Array {
		return nil, shapeError("CLUSTER SHARDS", v)
	}
	count := 0
	for _, s := range v.Elems {
		if nodes, ok := s.Field("nodes"); ok {
			count += len(nodes.Elems)
		}
	}
	if count > MaxNodes {
		return nil, errTooManyNodes
	}
	var out []shard
	for _, s := range v.Elems {
		id, _ := s.Field("id")
		nodes, ok := s.Field("nodes")
		if !ok || nodes.Kind != resp.Array {
			return nil, shapeError("CLUSTER SHARDS entry", s)
		}
		sh := shard{id: id.Str}
		for _, n := range nodes.Elems {
			nid, _ := n.Field("id")
			role, _ := n.Field("role")
			health, _ := n.Field("health")
			sn := shardNode{id: nid.Str, role: role.Str, health: health.Str}
			host := ""
			for _, k := range []string{"endpoint", "ip"} {
				if f, ok := n.Field(k); ok && f.Str != "" && f.Str != "?" {
					host = f.Str
					break
				}
			}
			portKey := "port"
			if tls {
				portKey = "tls-port"
			}
			if f, ok := n.Field(portKey); ok && host != "" {
				if port, ok := intOf(f); ok {
					sn.addr = hostPort(host, port)
				}
			}
			sh.nodes = append(sh.nodes, sn)
		}
		if sh.id == "" { // before Valkey 9.0 shards carry no ID: name them by their primary
			for _, n := range sh.nodes {
				if n.role == "master" {
					sh.id = n.id
				}
			}
		}
		out = append(out, sh)
	}
	return out, nil
}

// slotRange is one CLUSTER SLOTS entry: the addresses of the nodes that
// serve it, its primary first ("" for a node without a usable address).
type slotRange struct {
	nodes []string
}

// parseClusterSlots reads CLUSTER SLOTS:
// [[start, end, [host, port, id, ...], [replica host, port, ...]...]...].
func parseClusterSlots(v resp.Value) ([]slotRange, error) {
	if err := asError(v); err != nil {
		return nil, err
	}
	if v.Kind != resp.Array {
		return nil, shapeError("CLUSTER SLOTS", v)
	}
	count := 0
	for _, r := range v.Elems {
		count += max(len(r.Elems)-2, 0)
	}
	if count > MaxNodes*2 { // each node is listed once per range it serves
		return nil, errTooManyNodes
	}
	var out []slotRange
	for _, r := range v.Elems {
		if r.Kind != resp.Array || len(r.Elems) < 3 || r.Elems[0].Kind != resp.Int || r.Elems[1].Kind != resp.Int {
			return nil, shapeError("CLUSTER SLOTS entry", r)
		}
		var sr slotRange
		for _, n := range r.Elems[2:] {
			if n.Kind != resp.Array || len(n.Elems) < 2 {
				return nil, shapeError("CLUSTER SLOTS node", n)
			}
			host, _ := n.Elems[0].Text()
			port, _ := intOf(n.Elems[1])
			sr.nodes = append(sr.nodes, hostPort(host, port))
		}
		out = append(out, sr)
	}
	return out, nil
}

// parseEntries reads a Sentinel reply that lists entries of fields
// (SENTINEL MASTERS, REPLICAS, SENTINELS): flat arrays in RESP2, maps in
// RESP3. Values are kept as text.
func parseEntries(v resp.Value) ([]map[string]string, error) {
	if err := asError(v); err != nil {
		return nil, err
	}
	if v.Kind != resp.Array {
		return nil, shapeError("SENTINEL", v)
	}
	var out []map[string]string
	for _, e := range v.Elems {
		m, ok := e.Fields()
		if !ok {
			return nil, shapeError("SENTINEL entry", e)
		}
		out = append(out, m)
	}
	return out, nil
}

// entryAddr returns a Sentinel entry's ip:port.
func entryAddr(e map[string]string) (string, bool) {
	port, err := strconv.Atoi(e["port"])
	if err != nil {
		return "", false
	}
	addr := hostPort(e["ip"], port)
	return addr, addr != ""
}

// hostPort joins host and port, bracketing IPv6. It returns "" when the
// host is not a plausible host name or IP address (a reply can carry
// anything), and callers treat "" as no address.
func hostPort(host string, port int) string {
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	if host == "" || len(host) > 255 || port <= 0 || port > 65535 {
		return ""
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-_:%", c)) {
			return ""
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}
