package probe

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/netguard"
)

// fakeFleet is an in-process fleet of simulated Valkey 9.1.2 nodes, for
// what one machine cannot host: clusters of thousands of nodes, fleets of
// a hundred deployments. Every node answers with the replies recorded from
// real 9.1.2 servers (testdata/replies/valkey-9.1.2/resp3), with its own
// address, ID, role and peers written in; a cluster's CLUSTER NODES and
// CLUSTER SHARDS are made of the recorded lines and entries. Nothing
// listens and nothing is dialled: the probe's dial function (netguard)
// gets one end of an in-memory pipe per connection, and the fleet counts
// the connections open at once.
type fakeFleet struct {
	nodes map[string]*fakeNode
	rec   recordedReplies

	nodesView, shardsView []byte // the cluster's view, shared by its members

	mu      sync.Mutex
	open    int // connections open now
	maxOpen int // the most open at once
	dials   int
	rounds  map[string]int // round trips (batches answered) per node address
	sent    map[string]int // commands received, by upper-cased name, over all nodes
	// gate, when set, holds every connection but the seed's until gateAt
	// connections are open at once (see TestParallelBoundsConnections).
	gate   chan struct{}
	gateAt int
}

type fakeNode struct {
	addr     string
	port     int
	id       string // 40 hex digits, also the run ID
	cluster  bool
	primary  *fakeNode
	replicas []*fakeNode
	slots    [2]int        // a cluster primary's slot range
	delay    time.Duration // a slow link: every answer this late
	seed     bool
}

// recordedReplies are the recorded 9.1.2 replies the fleet answers with.
type recordedReplies struct {
	hello, commandInfo, commandDocs, configGet, clusterDisabled []byte
	serverText, clusterServerText, scripting                    string
	replPrimary, replReplica                                    string
	nodesLine                                                   []string // a recorded CLUSTER NODES line, in fields
	shard                                                       resp.Value
}

func loadRecorded(t testing.TB) recordedReplies {
	t.Helper()
	dir := filepath.Join("testdata", "replies", "valkey-9.1.2", "resp3")
	raw := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name+".resp"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	value := func(name string) resp.Value {
		v, err := resp.Parse(raw(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return v
	}
	text := func(name string) string { return value(name).Str }
	var r recordedReplies
	r.hello = []byte(helloReply)
	r.commandInfo, r.commandDocs, r.configGet = raw("command-info"), raw("command-docs-set"), raw("config-get")
	r.clusterDisabled = raw("cluster-disabled")
	r.serverText, r.clusterServerText, r.scripting = text("info-server"), text("cluster-info-server"), text("info-scriptingengines")
	r.replPrimary, r.replReplica = text("info-replication-primary"), text("cluster-info-replication-replica")
	for _, line := range strings.Split(text("cluster-nodes"), "\n") {
		if f := strings.Fields(line); len(f) >= 9 && strings.Contains(f[2], "master") && !strings.Contains(f[2], "myself") {
			r.nodesLine = f
			break
		}
	}
	shards := value("cluster-shards")
	if len(shards.Elems) == 0 || len(r.nodesLine) == 0 {
		t.Fatal("recorded CLUSTER NODES/SHARDS have no entry to copy")
	}
	r.shard = shards.Elems[0]
	return r
}

// newFakeCluster is a cluster of n nodes (n/2 primaries with one replica
// each; n odd: one primary without a replica), slots split evenly.
func newFakeCluster(t testing.TB, n int) *fakeFleet {
	f := &fakeFleet{nodes: map[string]*fakeNode{}, rec: loadRecorded(t)}
	primaries := (n + 1) / 2
	var all []*fakeNode
	for i := range n {
		nd := f.add(i, true)
		all = append(all, nd)
		if i >= primaries {
			p := all[i-primaries]
			nd.primary, p.replicas = p, append(p.replicas, nd)
		}
	}
	for i := range primaries {
		all[i].slots = [2]int{i * 16384 / primaries, (i+1)*16384/primaries - 1}
	}
	all[0].seed = true
	f.buildView(all)
	return f
}

// newFakeDeployments is d standalone deployments of a primary and r
// replicas each; the primaries are the seeds (as an inventory lists them).
func newFakeDeployments(t testing.TB, d, r int) (*fakeFleet, []string) {
	f := &fakeFleet{nodes: map[string]*fakeNode{}, rec: loadRecorded(t)}
	var seeds []string
	for i := range d {
		p := f.add(i*(r+1), false)
		p.seed = true
		seeds = append(seeds, p.addr)
		for j := range r {
			nd := f.add(i*(r+1)+j+1, false)
			nd.primary, p.replicas = p, append(p.replicas, nd)
		}
	}
	return f, seeds
}

func (f *fakeFleet) add(i int, cluster bool) *fakeNode {
	port := 10000 + i
	nd := &fakeNode{addr: "127.0.0.1:" + strconv.Itoa(port), port: port, id: fmt.Sprintf("%040x", 0xfa4e00000+i), cluster: cluster}
	f.nodes[nd.addr] = nd
	return nd
}

// buildView writes the cluster's CLUSTER NODES (the recorded line's
// fields, each node's own) and CLUSTER SHARDS (the recorded shard entry,
// each node's own values).
func (f *fakeFleet) buildView(all []*fakeNode) {
	var b strings.Builder
	tmpl := f.rec.nodesLine
	for _, nd := range all {
		flags, primary, slots := "master", "-", ""
		if nd.primary != nil {
			flags, primary = "slave", nd.primary.id
		} else {
			slots = fmt.Sprintf(" %d-%d", nd.slots[0], nd.slots[1])
		}
		fmt.Fprintf(&b, "%s 127.0.0.1:%d@%d %s %s %s %s %s %s%s\n", nd.id, nd.port, nd.port+10000, flags, primary, tmpl[4], tmpl[5], tmpl[6], tmpl[7], slots)
	}
	f.nodesView = appendBulk(nil, b.String())
	shards := resp.Value{Kind: resp.Array}
	for _, p := range all {
		if p.primary != nil {
			continue
		}
		shard := f.rec.shard
		members := append([]*fakeNode{p}, p.replicas...)
		var nodes []resp.Value
		tmplNode := fieldOf(f.rec.shard, "nodes").Elems[0]
		for _, nd := range members {
			role := "master"
			if nd.primary != nil {
				role = "replica"
			}
			nodes = append(nodes, withFields(tmplNode, map[string]resp.Value{
				"id": str(nd.id), "port": {Kind: resp.Int, Int: int64(nd.port)}, "ip": str("127.0.0.1"), "endpoint": str("127.0.0.1"), "role": str(role),
			}))
		}
		shards.Elems = append(shards.Elems, withFields(shard, map[string]resp.Value{
			"slots": {Kind: resp.Array, Elems: []resp.Value{{Kind: resp.Int, Int: int64(p.slots[0])}, {Kind: resp.Int, Int: int64(p.slots[1])}}},
			"nodes": {Kind: resp.Array, Elems: nodes},
		}))
	}
	f.shardsView = appendValue(nil, shards)
}

// dial is the probe's dial function: a pipe to the node at addr.
func (f *fakeFleet) dial(_ context.Context, _, addr string) (net.Conn, error) {
	if err := netguard.CheckLoopback(addr); err != nil {
		return nil, err
	}
	nd := f.nodes[addr]
	if nd == nil {
		return nil, fmt.Errorf("dial tcp %s: connect: connection refused", addr)
	}
	client, server := net.Pipe()
	f.mu.Lock()
	f.open++
	f.dials++
	f.maxOpen = max(f.maxOpen, f.open)
	if f.gate != nil && f.open >= f.gateAt {
		select {
		case <-f.gate:
		default:
			close(f.gate)
		}
	}
	gate := f.gate
	f.mu.Unlock()
	go f.serve(nd, server, gate)
	return &countedConn{Conn: client, f: f}, nil
}

// countedConn counts its connection closed when the probe closes it.
type countedConn struct {
	net.Conn
	f    *fakeFleet
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.f.mu.Lock()
		c.f.open--
		c.f.mu.Unlock()
	})
	return c.Conn.Close()
}

// serve answers one connection until the probe closes it.
func (f *fakeFleet) serve(nd *fakeNode, c net.Conn, gate chan struct{}) {
	defer c.Close()
	if gate != nil && !nd.seed {
		select {
		case <-gate:
		case <-time.After(30 * time.Second): // the test fails: the gate never opened
		}
	}
	r := bufio.NewReader(c)
	for {
		v, err := resp.Read(r)
		if err != nil || v.Kind != resp.Array || len(v.Elems) == 0 {
			return
		}
		var out []byte
		for more := true; more; more = r.Buffered() > 0 { // a pipelined batch, answered at once
			if out != nil {
				if v, err = resp.Read(r); err != nil {
					return
				}
			}
			f.mu.Lock()
			if f.sent == nil {
				f.sent = map[string]int{}
			}
			f.sent[strings.ToUpper(v.Elems[0].Str)]++
			f.mu.Unlock()
			out = append(out, f.answer(nd, v)...)
		}
		f.mu.Lock()
		if f.rounds == nil {
			f.rounds = map[string]int{}
		}
		f.rounds[nd.addr]++
		f.mu.Unlock()
		if nd.delay > 0 {
			time.Sleep(nd.delay)
		}
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

// answer is a recorded 9.1.2 reply to one command, made the node's own.
func (f *fakeFleet) answer(nd *fakeNode, v resp.Value) []byte {
	args := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		args[i] = e.Str
	}
	cmd := strings.ToUpper(strings.Join(args, " "))
	switch {
	case strings.HasPrefix(cmd, "HELLO "):
		return f.rec.hello
	case cmd == "TIME":
		now := time.Now()
		return appendValue(nil, resp.Value{Kind: resp.Array, Elems: []resp.Value{str(strconv.FormatInt(now.Unix(), 10)), str(strconv.Itoa(now.Nanosecond() / 1000))}})
	case strings.HasPrefix(cmd, "INFO"):
		var text strings.Builder
		for _, section := range strings.Fields(strings.ToLower(cmd))[1:] {
			text.WriteString(f.infoSection(nd, section))
			text.WriteString("\r\n")
		}
		return appendBulk(nil, text.String())
	case cmd == "ROLE":
		if nd.primary != nil {
			return appendValue(nil, resp.Value{Kind: resp.Array, Elems: []resp.Value{str("slave"), str("127.0.0.1"), {Kind: resp.Int, Int: int64(nd.primary.port)}, str("connected"), {Kind: resp.Int, Int: 14}}})
		}
		var reps []resp.Value
		for _, r := range nd.replicas {
			reps = append(reps, resp.Value{Kind: resp.Array, Elems: []resp.Value{str("127.0.0.1"), str(strconv.Itoa(r.port)), str("14")}})
		}
		return appendValue(nil, resp.Value{Kind: resp.Array, Elems: []resp.Value{str("master"), {Kind: resp.Int, Int: 14}, {Kind: resp.Array, Elems: reps}}})
	case strings.HasPrefix(cmd, "COMMAND INFO"):
		return f.rec.commandInfo
	case cmd == "COMMAND DOCS SET":
		return f.rec.commandDocs
	case strings.HasPrefix(cmd, "CONFIG GET"):
		return f.rec.configGet
	case strings.HasPrefix(cmd, "CLUSTER ") && !nd.cluster:
		return f.rec.clusterDisabled
	case cmd == "CLUSTER NODES":
		return f.nodesView
	case cmd == "CLUSTER SHARDS":
		return f.shardsView
	case cmd == "CLUSTER MYID":
		return appendBulk(nil, nd.id)
	}
	return []byte("-ERR unknown command '" + args[0] + "'\r\n")
}

// infoSection is a recorded INFO section with the node's own values.
func (f *fakeFleet) infoSection(nd *fakeNode, section string) string {
	set := func(text string, values map[string]string, drop func(key string) bool) string {
		var out []string
		for _, line := range strings.Split(strings.TrimRight(text, "\r\n"), "\r\n") {
			k, _, ok := strings.Cut(line, ":")
			if ok && drop != nil && drop(k) {
				continue
			}
			if v, found := values[k]; ok && found {
				line = k + ":" + v
				delete(values, k)
			}
			out = append(out, line)
		}
		for k, v := range values { // keys the recorded section lacks
			out = append(out, k+":"+v)
		}
		return strings.Join(out, "\r\n") + "\r\n"
	}
	switch section {
	case "server":
		text, mode := f.rec.serverText, "standalone"
		if nd.cluster {
			text, mode = f.rec.clusterServerText, "cluster"
		}
		return set(text, map[string]string{"run_id": nd.id, "tcp_port": strconv.Itoa(nd.port), "server_mode": mode,
			"listener0": "name=tcp,bind=127.0.0.1,port=" + strconv.Itoa(nd.port)}, nil)
	case "replication":
		if nd.primary != nil {
			return set(f.rec.replReplica, map[string]string{"master_host": "127.0.0.1", "master_port": strconv.Itoa(nd.primary.port)}, nil)
		}
		values := map[string]string{"connected_slaves": strconv.Itoa(len(nd.replicas))}
		for i, r := range nd.replicas {
			values["slave"+strconv.Itoa(i)] = fmt.Sprintf("ip=127.0.0.1,port=%d,state=online,offset=14,lag=0,type=replica", r.port)
		}
		return set(f.rec.replPrimary, values, func(k string) bool { return strings.HasPrefix(k, "slave") })
	case "scriptingengines":
		return f.rec.scripting
	}
	return ""
}

// commandsAfterClose waits until every connection is closed (valkey-go's
// own Close included), then returns how often each command was received.
func (f *fakeFleet) commandsAfterClose(t testing.TB) map[string]int {
	t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if open, _, _ := f.stats(); open == 0 {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("connections still open a minute after the run")
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.sent)
}

// roundTrips counts the nodes by the round trips they answered.
func (f *fakeFleet) roundTrips() map[int]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[int]int{}
	for _, n := range f.rounds {
		out[n]++
	}
	return out
}

func (f *fakeFleet) stats() (open, maxOpen, dials int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.open, f.maxOpen, f.dials
}

// The RESP3 writer the fleet answers with.

func str(s string) resp.Value { return resp.Value{Kind: resp.Str, Str: s} }

func appendBulk(b []byte, s string) []byte {
	return append(append(append(strconv.AppendInt(append(b, '$'), int64(len(s)), 10), "\r\n"...), s...), "\r\n"...)
}

func appendValue(b []byte, v resp.Value) []byte {
	switch v.Kind {
	case resp.Nil:
		return append(b, "_\r\n"...)
	case resp.Str:
		return appendBulk(b, v.Str)
	case resp.Err:
		return append(append(append(b, '-'), v.Str...), "\r\n"...)
	case resp.Int:
		return append(strconv.AppendInt(append(b, ':'), v.Int, 10), "\r\n"...)
	case resp.Bool:
		if v.Int != 0 {
			return append(b, "#t\r\n"...)
		}
		return append(b, "#f\r\n"...)
	case resp.Double:
		return append(append(append(b, ','), v.Str...), "\r\n"...)
	case resp.Map:
		b = append(strconv.AppendInt(append(b, '%'), int64(len(v.Elems)/2), 10), "\r\n"...)
	default:
		b = append(strconv.AppendInt(append(b, '*'), int64(len(v.Elems)), 10), "\r\n"...)
	}
	for _, e := range v.Elems {
		b = appendValue(b, e)
	}
	return b
}

// fieldOf returns a map's value under key (the zero Value when absent).
func fieldOf(v resp.Value, key string) resp.Value {
	f, _ := v.Field(key)
	return f
}

// withFields is a copy of a map with the values under some keys replaced.
func withFields(v resp.Value, values map[string]resp.Value) resp.Value {
	out := resp.Value{Kind: v.Kind, Elems: append([]resp.Value(nil), v.Elems...)}
	for i := 0; i+1 < len(out.Elems); i += 2 {
		if nv, ok := values[out.Elems[i].Str]; ok {
			out.Elems[i+1] = nv
		}
	}
	return out
}
