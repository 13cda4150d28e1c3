package probe

import (
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/framing"
	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

// These tests run the probe on real servers as the users operators really
// give it, and on topologies where the nodes that can become primary
// cannot all be known. None may be judged safe; each must name the fact it
// could not read and the permission that would let it.

// Users the probe meets in the field (docs/reliability.md, "The probe user").
const (
	appACL    = "~* &* +@all -@dangerous" // @dangerous holds info, role and config|get
	noInfoACL = "resetkeys resetchannels -@all +ping +command|info +command|docs +command|count +config|get +role +cluster|shards +cluster|nodes +cluster|info +cluster|myid +client|setname +time"
)

// addUsers creates the user on every server (ACLs are per node).
func addUsers(t *testing.T, acl string, servers ...*servertest.Server) {
	t.Helper()
	for _, s := range servers {
		s.AddUser(t, "probe", "probe-pw", acl)
	}
}

// wantLA208 checks that the node has an LA208 finding containing every
// part (a fact, its error, the permission to grant).
func wantLA208(t *testing.T, run *report.Run, addr string, parts ...string) {
	t.Helper()
	var msgs []string
	for _, f := range run.Findings {
		if f.Node != addr || f.Rule != "LA208" {
			continue
		}
		msgs = append(msgs, f.Message)
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(f.Message, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no LA208 on %s containing %q; LA208 there:\n  %s", addr, parts, strings.Join(msgs, "\n  "))
}

func wantReason(t *testing.T, run *report.Run, parts ...string) {
	t.Helper()
	for _, r := range run.Verdict.Strings() {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(r, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no reason containing %q:\n  %s", parts, strings.Join(run.Verdict.Strings(), "\n  "))
}

// TestProbeAppProfileUser: `+@all -@dangerous` can run neither INFO nor
// ROLE, so the 8.1 replica of a 9.1 primary cannot be found from the
// primary. Under Sentinel it is found (and breaks the release), but the
// primary's replicas still cannot be listed.
func TestProbeAppProfileUser(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	addUsers(t, appACL, n...)
	p, r := n[0].Addr, n[1].Addr

	run := probeRun(t, Options{Addrs: []string{p}, User: "probe", Password: "probe-pw"})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	wantLA208(t, run, p, "ROLE: NOPERM", "grant the probe user +role on this node")
	wantLA208(t, run, p, "INFO replication: NOPERM", "grant the probe user +info on this node", "the nodes that can become primary are not all known")
	wantReason(t, run, "native_release: unknown — not every node that can become primary is known: "+p+": its role and replicas could not be read")

	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 1, servertest.Config{})
	ss[0].AddUser(t, "probe", "probe-pw", servertest.SentinelProbeACL)
	run = probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "mymaster", User: "probe", Password: "probe-pw"})
	wantVerdict(t, run, report.Unsafe, report.Unknown.String(), report.Unknown.String(), report.ExitFindings)
	wantReason(t, run, "native_release: unsafe — replica "+r+" (promotable) has no DELIFEQ (COMMAND INFO DELIFEQ: nil")
	wantReason(t, run, "native_extend: unknown — not every node that can become primary is known: primary "+p+": its replicas could not be listed (ROLE: NOPERM", "INFO replication: NOPERM")
	wantLA208(t, run, p, "INFO replication: NOPERM", "+info")
}

// TestProbeNoInfoUser: without +info, ROLE still lists a primary's
// replicas (the 8.1 replica is found: unsafe), but a replica's own
// replicas can only be listed by INFO replication.
func TestProbeNoInfoUser(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	addUsers(t, noInfoACL, n...)
	p, r := n[0].Addr, n[1].Addr
	for _, opt := range []Options{{Addrs: []string{p}}, {Addrs: []string{r}}} {
		opt.User, opt.Password = "probe", "probe-pw"
		run := probeRun(t, opt)
		wantVerdict(t, run, report.Unsafe, report.Unknown.String(), report.Unknown.String(), report.ExitFindings)
		if got := nodeOf(t, run, r); got.Role != RoleReplica || got.DELIFEQ != report.No {
			t.Errorf("8.1 replica %+v", got)
		}
		wantLA208(t, run, p, "INFO server: NOPERM", "grant the probe user +info on this node")
		wantReason(t, run, "native_extend: unknown — not every node that can become primary is known: replica "+r+": its replicas could not be listed (INFO replication: NOPERM")
	}

	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 1, servertest.Config{})
	ss[0].AddUser(t, "probe", "probe-pw", servertest.SentinelProbeACL)
	run := probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "mymaster", User: "probe", Password: "probe-pw"})
	wantVerdict(t, run, report.Unsafe, report.Unknown.String(), report.Unknown.String(), report.ExitFindings)
	wantLA208(t, run, r, "INFO replication: NOPERM", "+info")
}

// TestProbeClusterMemberPermissions: a two-shard cluster whose second
// primary is 8.1. Either member list (CLUSTER NODES or SHARDS) finds it;
// CLUSTER SLOTS finds it too but is no complete list; with none of them
// the other shard is unseen.
func TestProbeClusterMemberPermissions(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	c := servertest.StartCluster(t,
		servertest.Shard{Replicas: []servertest.Config{{}}},
		servertest.Shard{Primary: servertest.Config{Version: servertest.Valkey81}},
	)
	seed, old := c.Shards[0][0].Addr, c.Shards[1][0].Addr
	without := func(perms ...string) string {
		acl := servertest.ProbeACL
		for _, p := range perms {
			acl = strings.Replace(acl, " +"+p, "", 1)
		}
		return acl
	}

	t.Run("the documented probe user", func(t *testing.T) {
		addUsers(t, servertest.ProbeACL, c.Nodes...)
		run := probeRun(t, Options{Addrs: []string{seed}, User: "probe", Password: "probe-pw"})
		wantVerdict(t, run, report.Unsafe, report.Safe, report.Available, report.ExitFindings)
		for _, f := range run.Findings {
			if f.Rule == "LA208" {
				t.Errorf("the minimal probe user misses a fact: %s", f.Message)
			}
		}
	})
	t.Run("no cluster|nodes", func(t *testing.T) {
		addUsers(t, without("cluster|nodes"), c.Nodes...)
		run := probeRun(t, Options{Addrs: []string{seed}, User: "probe", Password: "probe-pw"})
		// CLUSTER SHARDS lists every member: the verdicts are decided.
		wantVerdict(t, run, report.Unsafe, report.Safe, report.Available, report.ExitFindings)
		if got := nodeOf(t, run, old); got.Role != RolePrimary || got.DELIFEQ != report.No || got.Version != "8.1.1" {
			t.Errorf("8.1 primary %+v", got)
		}
		if len(run.Nodes) != 3 {
			t.Errorf("%d nodes, want 3", len(run.Nodes))
		}
		wantLA208(t, run, seed, "CLUSTER NODES: NOPERM", "grant the probe user +cluster|nodes on this node")
	})
	t.Run("no member list", func(t *testing.T) {
		addUsers(t, without("cluster|nodes", "cluster|shards"), c.Nodes...)
		run := probeRun(t, Options{Addrs: []string{seed}, User: "probe", Password: "probe-pw"})
		wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
		for _, n := range run.Nodes {
			if n.Addr == old {
				t.Errorf("the 8.1 primary was found without a member list")
			}
		}
		wantLA208(t, run, seed, "CLUSTER NODES: NOPERM", "+cluster|nodes")
		wantLA208(t, run, seed, "CLUSTER SHARDS: NOPERM", "+cluster|shards")
		wantReason(t, run, "native_release: unknown — not every node that can become primary is known: primary "+seed, "the cluster's members could not be listed")
	})
	t.Run("CLUSTER SLOTS only", func(t *testing.T) {
		addUsers(t, without("cluster|nodes", "cluster|shards")+" +cluster|slots", c.Nodes...)
		run := probeRun(t, Options{Addrs: []string{seed}, User: "probe", Password: "probe-pw"})
		// SLOTS finds the 8.1 primary, but lists neither members without
		// slots nor failed replicas: what is not unsafe stays unknown.
		wantVerdict(t, run, report.Unsafe, report.Unknown.String(), report.Unknown.String(), report.ExitFindings)
		if got := nodeOf(t, run, old); got.DELIFEQ != report.No {
			t.Errorf("8.1 primary %+v", got)
		}
		wantReason(t, run, "native_extend: unknown — not every node that can become primary is known", "the cluster's members could not be listed")
	})
}

// TestProbeFrozenReplica: a replica that answers the handshake and is then
// frozen inside its batch (SIGSTOP, sockets open) has unknown facts and
// unknown replicas: nothing it could have hidden is judged safe.
func TestProbeFrozenReplica(t *testing.T) {
	p := servertest.Start(t, servertest.Config{})
	r := servertest.Start(t, servertest.Config{})
	proxy := freezingProxy(t, r)
	_, port, _ := net.SplitHostPort(proxy)
	r.Do(t, "CONFIG", "SET", "replica-announce-port", port)
	r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	waitUntil(t, "the primary lists its replica at the proxy", func() bool {
		return strings.Contains(p.Do(t, "INFO", "replication"), "port="+port+",state=online")
	})

	run := probeRun(t, Options{Addrs: []string{p.Addr}, Timeout: time.Second})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	got := nodeOf(t, run, proxy)
	if got.Role != RoleReplica || got.Version != "" || got.SetIFEQ != report.Unknown || got.DELIFEQ != report.Unknown {
		t.Errorf("frozen replica %+v, want a replica (as its primary says) with nothing read", got)
	}
	wantLA208(t, run, proxy, "ROLE: no answer within 1s")
	wantLA208(t, run, proxy, "INFO replication: no answer within 1s", "the nodes that can become primary are not all known")
	wantReason(t, run, "native_extend: unknown — replica "+proxy+": SET IFEQ unknown (COMMAND DOCS SET: no answer within 1s")
	wantReason(t, run, "native_extend: unknown — not every node that can become primary is known: replica "+proxy+": its replicas could not be listed (ROLE: no answer within 1s", "INFO replication: no answer within 1s")
}

// freezingProxy relays connections to s, and stops s's process (SIGSTOP)
// when a client sends its third command: s has answered the handshake,
// and then freezes with its sockets open inside the probe's batch. The test's
// cleanup resumes it (SIGCONT).
func freezingProxy(t *testing.T, s *servertest.Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := netguard.CheckLoopback(s.Addr); err != nil {
		t.Fatal(err)
	}
	proc, _ := os.FindProcess(s.Pid())
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		proc.Signal(syscall.SIGCONT)
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", s.Addr)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, up)
			mu.Unlock()
			go func() { // server to client, as it comes
				buf := make([]byte, 32<<10)
				for {
					n, err := up.Read(buf)
					if n > 0 {
						c.Write(buf[:n])
					}
					if err != nil {
						c.Close()
						return
					}
				}
			}()
			go func() { // client to server; stop s before the third command reaches it
				commands := 0
				count := framing.New(framing.Limits{MaxBulk: 1 << 20, MaxLine: 1 << 16, MaxAggregate: 1 << 10, MaxDepth: 2, MaxElems: 1 << 30, MaxTotal: 1 << 40})
				count.Begin = func() bool {
					if commands++; commands == 3 {
						proc.Signal(syscall.SIGSTOP)
					}
					return true
				}
				buf := make([]byte, 32<<10)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						count.Feed(buf[:n], nil)
						up.Write(buf[:n])
					}
					if err != nil {
						up.Close()
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// TestProbeReplicaCycle: replicas of themselves or of each other leave no
// primary: which node takes writes is unknown, and so is every verdict.
func TestProbeReplicaCycle(t *testing.T) {
	self := servertest.Start(t, servertest.Config{})
	self.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(self.Port))
	run := probeRun(t, Options{Addrs: []string{self.Addr}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	wantLA208(t, run, self.Addr, "replica "+self.Addr+" replicates itself: no node takes writes", "unknown: the nodes that can become primary")

	a := servertest.Start(t, servertest.Config{})
	b := servertest.Start(t, servertest.Config{})
	a.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(b.Port))
	b.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(a.Port))
	first, second := a.Addr, b.Addr
	if second < first {
		first, second = second, first
	}
	run = probeRun(t, Options{Addrs: []string{b.Addr}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	wantLA208(t, run, first, "replicas "+first+" → "+second+" → "+first+" replicate each other in a cycle")
	wantReason(t, run, "native_release: unknown — not every node that can become primary is known: replicas "+first)
	if got := rulesAt(run, second); slices.Contains(got, "LA208") {
		t.Errorf("the cycle is reported twice: %s has %v", second, got)
	}
}
