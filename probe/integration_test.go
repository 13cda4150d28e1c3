package probe

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"github.com/lockaudit/lockaudit/probe/internal/fakenode"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// These tests run the whole probe against real servers (probe/servertest).

func probeRun(t *testing.T, opt Options) *report.Run {
	t.Helper()
	if opt.Timeout == 0 {
		opt.Timeout = 2 * time.Second
	}
	run, err := Run(servertest.Loopback(t), opt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if testing.Verbose() {
		out, _ := json.MarshalIndent(struct {
			Topology string
			Findings []report.Finding
			Verdict  *report.Verdict
			Errors   []report.Error
		}{run.Topology, run.Findings, run.Verdict, run.Errors}, "", "  ")
		t.Logf("probe result:\n%s", out)
	}
	return run
}

func nodeOf(t *testing.T, run *report.Run, addr string) report.Node {
	t.Helper()
	for _, n := range run.Nodes {
		if n.Addr == addr {
			return n
		}
	}
	var addrs []string
	for _, n := range run.Nodes {
		addrs = append(addrs, n.Addr)
	}
	t.Fatalf("node %s not in the report (nodes: %v)", addr, addrs)
	return report.Node{}
}

// rulesAt lists the rules found on a node.
func rulesAt(run *report.Run, addr string) []string {
	var out []string
	for _, f := range run.Findings {
		if f.Node == addr {
			out = append(out, string(f.Rule))
		}
	}
	return out
}

func wantVerdict(t *testing.T, run *report.Run, release, extend, lua string, exit int) {
	t.Helper()
	v := run.Verdict
	got := [3]string{v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word()}
	if got != [3]string{release, extend, lua} {
		t.Errorf("verdict: release %s, extend %s, lua %s; want %s, %s, %s\n  %s", got[0], got[1], got[2], release, extend, lua, strings.Join(v.Strings(), "\n  "))
	}
	if got := report.ExitCode(run); got != exit {
		t.Errorf("exit code %d, want %d (errors %v)", got, exit, run.Errors)
	}
}

func wantNoErrors(t *testing.T, run *report.Run) {
	t.Helper()
	for _, n := range run.Nodes {
		if len(n.Errors) > 0 {
			t.Errorf("node %s: facts not read: %v", n.Addr, n.Errors)
		}
	}
}

func TestProbeAll91IsSafe(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0}, servertest.Node{Of: 1})
	// Seeded with the replica of the replica: the probe walks up and down.
	run := probeRun(t, Options{Addrs: []string{n[2].Addr}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	wantNoErrors(t, run)
	if run.Topology != Replication || len(run.Nodes) != 3 {
		t.Fatalf("topology %s with %d nodes, want replication with 3", run.Topology, len(run.Nodes))
	}
	if run.Nodes[0].Addr != n[0].Addr || run.Nodes[0].Role != RolePrimary {
		t.Errorf("first node %+v, want the primary %s", run.Nodes[0], n[0].Addr)
	}
	if sub := nodeOf(t, run, n[2].Addr); sub.Primary != n[1].Addr || sub.Promotable != report.PromotableYes || sub.DELIFEQ != report.Yes {
		t.Errorf("replica of a replica: %+v", sub)
	}
	// The same over RESP2.
	run2 := probeRun(t, Options{Addrs: []string{n[0].Addr}, RESP2: true})
	wantVerdict(t, run2, report.Safe, report.Safe, report.Available, 0)
	wantNoErrors(t, run2)
}

func TestProbe91PrimaryWith81Replica(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	run := probeRun(t, Options{Addrs: []string{n[0].Addr}})
	wantVerdict(t, run, report.Unsafe, report.Safe, report.Available, report.ExitFindings)
	if got := rulesAt(run, n[1].Addr); !slices.Contains(got, "LA201") || slices.Contains(got, "LA202") {
		t.Errorf("8.1 replica findings %v, want LA201 and no LA202", got)
	}
	want := "native_release: unsafe — replica " + n[1].Addr + " (Valkey 8.1.1, promotable) has no DELIFEQ"
	if !strings.Contains(strings.Join(run.Verdict.Strings(), "\n"), want) {
		t.Errorf("reasons lack %q: %v", want, run.Verdict.Strings())
	}
}

func TestProbe80ReplicaBothUnsafe(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey80)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey80}, Of: 0})
	run := probeRun(t, Options{Addrs: []string{n[1].Addr}})
	wantVerdict(t, run, report.Unsafe, report.Unsafe, report.Available, report.ExitFindings)
	if got := rulesAt(run, n[1].Addr); !slices.Contains(got, "LA201") || !slices.Contains(got, "LA202") {
		t.Errorf("8.0 replica findings %v, want LA201 and LA202", got)
	}
	if r := nodeOf(t, run, n[1].Addr); r.SetIFEQ != report.No || r.DELIFEQ != report.No || r.Version != "8.0.1" {
		t.Errorf("8.0 replica: %+v", r)
	}
}

func TestProbeSentinelOldReplicaAtPriorityZero(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey80)
	old := servertest.Config{Version: servertest.Valkey80, Args: []string{"--replica-priority", "0"}}
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: old, Of: 0}, servertest.Node{Of: 0})
	ss := servertest.StartSentinels(t, n[0], "mymaster", 2, 2, servertest.Config{})
	run := probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "mymaster"})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	wantNoErrors(t, run)
	if run.Topology != Sentinel || len(run.Nodes) != 5 {
		t.Errorf("topology %s with %d nodes, want sentinel with 5 (3 data nodes, 2 Sentinels)", run.Topology, len(run.Nodes))
	}
	if o := nodeOf(t, run, n[1].Addr); o.Promotable != report.PromotableNo || o.DELIFEQ != report.No {
		t.Errorf("8.0 replica at priority 0: %+v", o)
	}
	if s := nodeOf(t, run, ss[1].Addr); s.Role != RoleSentinel || s.Promotable != report.PromotableNo {
		t.Errorf("second Sentinel (found through the first): %+v", s)
	}
	// A Sentinel given as a plain address is recognised as one.
	run = probeRun(t, Options{Addrs: []string{ss[1].Addr}})
	if run.Topology != Sentinel || len(run.Nodes) != 5 {
		t.Errorf("Sentinel seed: topology %s with %d nodes, want sentinel with 5", run.Topology, len(run.Nodes))
	}
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	// Without Sentinel the same replica counts as promotable.
	run = probeRun(t, Options{Addrs: []string{n[0].Addr}})
	wantVerdict(t, run, report.Unsafe, report.Unsafe, report.Available, report.ExitFindings)
}

func TestProbeSentinelHiddenReplica(t *testing.T) {
	hidden := servertest.Config{Args: []string{"--replica-announced", "no"}}
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0}, servertest.Node{Config: hidden, Of: 0})
	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 1, servertest.Config{})
	// A seed address is probed too when given with -sentinel.
	run := probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "mymaster", Addrs: []string{n[1].Addr}})
	h := nodeOf(t, run, n[2].Addr)
	if !h.Hidden || h.Promotable != report.PromotableYes {
		t.Errorf("hidden replica: %+v", h)
	}
	if got := rulesAt(run, n[2].Addr); !slices.Contains(got, "LA209") {
		t.Errorf("hidden replica findings %v, want LA209", got)
	}
	if got := rulesAt(run, n[1].Addr); slices.Contains(got, "LA209") {
		t.Errorf("announced replica has LA209")
	}
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
}

func TestProbeSentinelUnknownMaster(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{})
	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 0, servertest.Config{})
	run := probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "nosuch"})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	s := nodeOf(t, run, ss[0].Addr)
	if len(s.Errors) == 0 || !strings.Contains(s.Errors[0], `no primary named "nosuch" is monitored (monitored: mymaster)`) {
		t.Errorf("sentinel errors: %v", s.Errors)
	}
}

func TestProbeClusterMixedVersions(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	c := servertest.StartCluster(t,
		servertest.Shard{Replicas: []servertest.Config{{Version: servertest.Valkey81}}},
		servertest.Shard{Replicas: []servertest.Config{{}}},
		servertest.Shard{},
	)
	run := probeRun(t, Options{Addrs: []string{c.Nodes[len(c.Nodes)-1].Addr}})
	wantVerdict(t, run, report.Unsafe, report.Safe, report.Available, report.ExitFindings)
	wantNoErrors(t, run)
	if run.Topology != Cluster || len(run.Nodes) != len(c.Nodes) {
		t.Fatalf("topology %s with %d nodes, want cluster with %d", run.Topology, len(run.Nodes), len(c.Nodes))
	}
	old := c.Shards[0][1]
	if r := nodeOf(t, run, old.Addr); r.Promotable != report.PromotableYes || r.Primary != c.Shards[0][0].Addr || r.Shard == "" || r.Shard != nodeOf(t, run, c.Shards[0][0].Addr).Shard {
		t.Errorf("8.1 cluster replica: %+v", r)
	}
	if got := rulesAt(run, old.Addr); !slices.Contains(got, "LA201") {
		t.Errorf("8.1 cluster replica findings %v, want LA201", got)
	}
}

func TestProbeClusterNoFailoverIsANote(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	nf := servertest.Config{Version: servertest.Valkey81, Args: []string{"--cluster-replica-no-failover", "yes"}}
	c := servertest.StartCluster(t, servertest.Shard{Replicas: []servertest.Config{nf}}, servertest.Shard{})
	run := probeRun(t, Options{Addrs: []string{c.Nodes[0].Addr}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	r := nodeOf(t, run, c.Shards[0][1].Addr)
	if r.Promotable != report.PromotableManual {
		t.Errorf("nofailover replica promotable %q, want manual", r.Promotable)
	}
	want := "native_release: note — replica " + r.Addr + " (Valkey 8.1.1) has no DELIFEQ; cluster-replica-no-failover yes: only a manual CLUSTER FAILOVER promotes it"
	if !slices.Contains(run.Verdict.Strings(), want) {
		t.Errorf("reasons lack %q:\n%s", want, strings.Join(run.Verdict.Strings(), "\n"))
	}
}

func TestProbeLuaUnloaded(t *testing.T) {
	s := servertest.Start(t, servertest.Config{ModuleCommand: true})
	s.UnloadLua(t)
	run := probeRun(t, Options{Addrs: []string{s.Addr}, Uses: []rules.Command{rules.UseDELIFEQ, rules.UseIFEQ, rules.UseLua}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Missing, report.ExitFindings)
	if got := rulesAt(run, s.Addr); !slices.Contains(got, "LA203") {
		t.Errorf("findings %v, want LA203", got)
	}
	if n := nodeOf(t, run, s.Addr); n.Lua != report.No {
		t.Errorf("lua = %s", n.Lua)
	}
	// Code on the native path does not care.
	run = probeRun(t, Options{Addrs: []string{s.Addr}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Missing, 0)
}

func TestProbeEvalDisabled(t *testing.T) {
	servertest.Require(t, servertest.Valkey81)
	s := servertest.Start(t, servertest.Config{Version: servertest.Valkey81, Args: []string{"--rename-command", "EVAL", ""}})
	run := probeRun(t, Options{Addrs: []string{s.Addr}, Uses: []rules.Command{rules.UseLua}})
	wantVerdict(t, run, report.Unsafe, report.Safe, report.Missing, report.ExitFindings)
	if got := rulesAt(run, s.Addr); !slices.Contains(got, "LA203") {
		t.Errorf("findings %v, want LA203", got)
	}
}

func TestProbeRedis70(t *testing.T) {
	s := servertest.Start(t, servertest.Config{Version: servertest.Redis70})
	run := probeRun(t, Options{Addrs: []string{s.Addr}})
	wantVerdict(t, run, report.Unsafe, report.Unsafe, report.Available, report.ExitFindings)
	wantNoErrors(t, run)
	got := rulesAt(run, s.Addr)
	for _, id := range []string{"LA201", "LA202", "LA210"} {
		if !slices.Contains(got, id) {
			t.Errorf("Redis 7.0 findings %v, want %s", got, id)
		}
	}
	if n := nodeOf(t, run, s.Addr); n.Server != "redis" || n.Version != "7.0.15" {
		t.Errorf("node %+v", n)
	}
}

func TestProbeConfigRenamed(t *testing.T) {
	s := servertest.Start(t, servertest.Config{Args: []string{"--rename-command", "CONFIG", ""}})
	run := probeRun(t, Options{Addrs: []string{s.Addr}})
	// The release verdict does not need CONFIG: still decidable.
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	n := nodeOf(t, run, s.Addr)
	if len(n.Config) != 0 || len(n.Errors) != 1 || !strings.Contains(n.Errors[0], "CONFIG GET: ERR unknown command 'CONFIG'") {
		t.Errorf("node config %v, errors %v", n.Config, n.Errors)
	}
	if got := rulesAt(run, s.Addr); !slices.Contains(got, "LA208") || slices.Contains(got, "LA205") {
		t.Errorf("findings %v, want LA208 and no config-based finding", got)
	}
}

func TestProbeRestrictedUser(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	for _, s := range n {
		s.AddUser(t, "probe", "probe-pw", servertest.ProbeACL)
	}
	ss := servertest.StartSentinels(t, n[0], "mymaster", 1, 1, servertest.Config{})
	ss[0].AddUser(t, "probe", "probe-pw", servertest.SentinelProbeACL)
	run := probeRun(t, Options{Sentinels: []string{ss[0].Addr}, Master: "mymaster", User: "probe", Password: "probe-pw"})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	wantNoErrors(t, run) // nothing the probe sends is outside the ACL
	for _, f := range run.Findings {
		if f.Rule == "LA208" {
			t.Errorf("restricted user: %s", f.Message)
		}
	}
	// Every command the probe sent was allowed: none was rejected.
	for _, s := range n {
		for k, v := range s.Info(t, "commandstats") {
			if strings.Contains(v, "rejected_calls=") && !strings.Contains(v, "rejected_calls=0") {
				t.Errorf("%s: %s %s", s.Addr, k, v)
			}
		}
	}
}

func TestProbeWrongPassword(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{Config: servertest.Config{Password: "right-pw"}}, servertest.Node{Config: servertest.Config{Password: "right-pw"}, Of: 0})
	run := probeRun(t, Options{Addrs: []string{n[0].Addr}, Password: "wrong-pw"})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
	if len(run.Errors) == 0 || !strings.Contains(run.Errors[0].Message, "WRONGPASS") {
		t.Errorf("errors %v, want WRONGPASS", run.Errors)
	}
	// No password at all.
	run = probeRun(t, Options{Addrs: []string{n[0].Addr}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)

	// One node with another password: the rest is read, the verdict is unknown.
	other := servertest.Start(t, servertest.Config{Password: "other-pw", Args: []string{"--masterauth", "right-pw"}})
	other.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(n[0].Port))
	other.WaitReplicating(t, n[0])
	run = probeRun(t, Options{Addrs: []string{n[0].Addr}, Password: "right-pw"})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	if got := rulesAt(run, other.Addr); !slices.Contains(got, "LA208") {
		t.Errorf("node with another password: findings %v, want LA208", got)
	}
}

func TestProbeUnreachableSeed(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	run := probeRun(t, Options{Addrs: []string{addr}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
	if len(run.Errors) != 1 || run.Errors[0].Where != addr || !strings.Contains(run.Errors[0].Message, "connection refused") {
		t.Errorf("errors %+v", run.Errors)
	}
}

// silentListener accepts connections and never answers: a node that hangs.
func silentListener(t testing.TB) string {
	addr, _ := fakenode.Silent(t)
	return addr
}

func TestProbeAnnouncedAddressesNotAnswering(t *testing.T) {
	silent := silentListener(t)
	_, silentPort, _ := net.SplitHostPort(silent)
	p := servertest.Start(t, servertest.Config{})
	// One replica announces the silent listener's port; the other announces
	// 127.0.0.2, a loopback address where nothing listens (every server here
	// binds 127.0.0.1 only).
	hung := servertest.Start(t, servertest.Config{Args: []string{"--replica-announce-ip", "127.0.0.1", "--replica-announce-port", silentPort}})
	lost := servertest.Start(t, servertest.Config{Args: []string{"--replica-announce-ip", "127.0.0.2"}})
	for _, r := range []*servertest.Server{hung, lost} {
		r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	}
	waitUntil(t, "both replicas online", func() bool { return strings.Count(p.Do(t, "INFO", "replication"), "state=online") == 2 })

	run := probeRun(t, Options{Addrs: []string{p.Addr}, Timeout: time.Second, Deadline: 20 * time.Second})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	lostAddr := net.JoinHostPort("127.0.0.2", strconv.Itoa(lost.Port))
	for _, a := range []string{silent, lostAddr} {
		n := nodeOf(t, run, a)
		if n.Role != RoleReplica || n.Primary != p.Addr || len(n.Errors) == 0 {
			t.Errorf("announced replica %s: %+v", a, n)
		}
		if got := rulesAt(run, a); !slices.Contains(got, "LA208") {
			t.Errorf("%s findings %v, want LA208", a, got)
		}
	}
	if e := nodeOf(t, run, silent).Errors; !strings.Contains(strings.Join(e, " "), "no answer") && !strings.Contains(strings.Join(e, " "), "deadline") {
		t.Errorf("silent node errors %v, want a timeout", e)
	}
	if e := nodeOf(t, run, lostAddr).Errors; !strings.Contains(strings.Join(e, " "), "connection refused") {
		t.Errorf("unreachable node errors %v, want connection refused", e)
	}
}

// TestLoopbackGuard: LoopbackOnly refuses any address off this machine,
// and the probe opens every connection, to seeds and to the nodes it
// discovers, through the dial function its context carries.
func TestLoopbackGuard(t *testing.T) {
	for _, a := range []string{"127.0.0.1:1", "127.255.0.9:6379", "[::1]:6379"} {
		if err := netguard.CheckLoopback(a); err != nil {
			t.Errorf("%s refused: %v", a, err)
		}
	}
	// Dialled with a canceled context: even a broken guard sends nothing.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for _, a := range []string{"169.254.0.1:6379", "10.0.0.1:6379", "localhost:6379", "[::ffff:10.0.0.1]:1", "[2001:db8::1]:6379", "example.com:6379", "127.0.0.1"} {
		var refused error
		_, err := netguard.LoopbackOnly(func(err error) { refused = err })(gone, "tcp", a)
		if err == nil || refused == nil || !strings.Contains(err.Error(), "only loopback addresses") && !strings.Contains(err.Error(), "not HOST:PORT") {
			t.Errorf("%s: dial error %v, refused %v; want a refusal", a, err, refused)
		}
	}

	p := servertest.Start(t, servertest.Config{})
	r := servertest.Start(t, servertest.Config{Args: []string{"--replica-announce-ip", "127.0.0.2"}})
	r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	r.WaitReplicating(t, p)
	var mu sync.Mutex
	var dialled []string
	guard := netguard.LoopbackOnly(func(err error) { t.Error(err) })
	ctx := netguard.With(context.Background(), func(ctx context.Context, network, addr string) (net.Conn, error) {
		mu.Lock()
		dialled = append(dialled, addr)
		mu.Unlock()
		return guard(ctx, network, addr)
	})
	if _, err := Run(ctx, Options{Addrs: []string{p.Addr}, Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(dialled)
	if want := []string{p.Addr, net.JoinHostPort("127.0.0.2", strconv.Itoa(r.Port))}; !slices.Equal(dialled, want) {
		t.Errorf("the probe dialled %v, want %v through the context's dial function", dialled, want)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// probeCommands is the probe's read-only allowlist written out by hand:
// every command (and subcommand) it may send. A command joins it only after
// it was checked to be read-only on every server version, here and in
// readOnly (allow.go) both.
var probeCommands = map[string][]string{
	"PING":     nil,
	"INFO":     nil,
	"ROLE":     nil,
	"TIME":     nil,
	"COMMAND":  {"COUNT", "DOCS", "INFO"},
	"CONFIG":   {"GET"},
	"CLIENT":   {"SETNAME"},
	"CLUSTER":  {"INFO", "MYID", "NODES", "SHARDS", "SLOTS"},
	"SENTINEL": {"GET-MASTER-ADDR-BY-NAME", "MASTER", "MASTERS", "REPLICAS", "SENTINELS", "SLAVES"},
}

// TestReadOnlyIsTheWrittenList: the allowlist the probe enforces is exactly
// the list above, so adding a command to it takes a second, deliberate
// edit.
func TestReadOnlyIsTheWrittenList(t *testing.T) {
	got := map[string][]string{}
	for name, subs := range readOnly {
		got[name] = nil
		for sub := range subs {
			got[name] = append(got[name], sub)
		}
		slices.Sort(got[name])
	}
	for name, subs := range probeCommands {
		if g, ok := got[name]; !ok || !slices.Equal(g, subs) {
			t.Errorf("readOnly[%s] = %v (present: %v), want %v", name, g, ok, subs)
		}
	}
	for name := range got {
		if _, ok := probeCommands[name]; !ok {
			t.Errorf("readOnly allows %s %v, which is not in the written list", name, got[name])
		}
	}
}

// TestProbeSendsNoWrite checks, with the servers' own command statistics,
// that nothing but the written list (and the handshake) reached them: what
// every command count grew by while the probe ran, against the counts
// before.
func TestProbeSendsNoWrite(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	c := servertest.StartCluster(t, servertest.Shard{Replicas: []servertest.Config{{}}})
	all := append(append([]*servertest.Server(nil), n...), c.Nodes...)
	calls := func(s *servertest.Server) map[string]int {
		out := map[string]int{}
		for k, v := range s.Info(t, "commandstats") {
			_, rest, _ := strings.Cut(v, "calls=")
			num, _, _ := strings.Cut(rest, ",")
			out[strings.TrimPrefix(k, "cmdstat_")], _ = strconv.Atoi(num)
		}
		return out
	}
	before := map[*servertest.Server]map[string]int{}
	for _, s := range all {
		before[s] = calls(s)
	}
	probeRun(t, Options{Addrs: []string{n[0].Addr, c.Nodes[0].Addr}})

	allowed := map[string]bool{
		"hello": true, "auth": true, // the handshake (valkey-go's; CLIENT SETNAME rides in HELLO)
		"info": true, // also this test's own INFO commandstats
		// the servers' own traffic on their replication links
		"replconf": true, "psync": true, "sync": true,
	}
	for name, subs := range probeCommands {
		if subs == nil {
			allowed[strings.ToLower(name)] = true
		}
		for _, sub := range subs {
			allowed[strings.ToLower(name+"|"+sub)] = true
		}
	}
	for _, s := range all {
		after := calls(s)
		if after["command|info"] <= before[s]["command|info"] {
			t.Errorf("%s: the probe's COMMAND INFO did not arrive: %v", s.Addr, after)
		}
		for cmd, num := range after {
			if num > before[s][cmd] && !allowed[cmd] {
				t.Errorf("%s: %s reached the server %d time(s) while the probe ran", s.Addr, cmd, num-before[s][cmd])
			}
		}
		for cmd, num := range before[s] {
			if after[cmd] < num { // CONFIG RESETSTAT counts nothing, not even itself
				t.Errorf("%s: the command statistics were reset while the probe ran (%s: %d calls before, %d after)", s.Addr, cmd, num, after[cmd])
				break
			}
		}
	}
}

// TestProbeDeadline: nodes that never answer cannot hold the probe past
// its overall deadline; what was not read is reported, nothing hangs.
func TestProbeDeadline(t *testing.T) {
	var addrs []string
	for i := 0; i < 4; i++ {
		addrs = append(addrs, silentListener(t))
	}
	run := probeRun(t, Options{Addrs: addrs, Parallel: 1, Timeout: time.Second, Deadline: 1500 * time.Millisecond})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
	var timedOut, notProbed int
	for _, n := range run.Nodes {
		all := strings.Join(n.Errors, " ")
		switch {
		case strings.Contains(all, "not probed: the overall deadline"):
			notProbed++
		case strings.Contains(all, "deadline") || strings.Contains(all, "no answer"):
			timedOut++
		default:
			t.Errorf("node %s: errors %v", n.Addr, n.Errors)
		}
	}
	if len(run.Nodes) != 4 || notProbed == 0 || timedOut == 0 {
		t.Errorf("%d nodes, %d timed out, %d not probed; want 4 with both kinds: %v", len(run.Nodes), timedOut, notProbed, run.Nodes)
	}
}

// TestProbeTLS: the server's certificate is verified, against the CA given
// and the name given; without them the probe refuses the connection.
func TestProbeTLS(t *testing.T) {
	dir := t.TempDir()
	caPEM, certFile, keyFile := testCerts(t, dir)
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	s := servertest.Start(t, servertest.Config{Args: []string{"--tls-port", "{busport}", "--tls-cert-file", certFile,
		"--tls-key-file", keyFile, "--tls-ca-cert-file", caFile, "--tls-auth-clients", "no"}})
	tlsAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.BusPort))
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)

	run := probeRun(t, Options{Addrs: []string{tlsAddr}, TLS: &tls.Config{RootCAs: pool, ServerName: "valkey.test"}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	wantNoErrors(t, run)

	// The system roots do not know the test CA: refused, for that reason.
	run = probeRun(t, Options{Addrs: []string{tlsAddr}, TLS: &tls.Config{ServerName: "valkey.test"}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
	if len(run.Errors) != 1 || !strings.Contains(run.Errors[0].Message, "certificate signed by unknown authority") {
		t.Errorf("unknown CA: errors %v", run.Errors)
	}
	// The right CA, the wrong name: refused because of the name.
	run = probeRun(t, Options{Addrs: []string{tlsAddr}, TLS: &tls.Config{RootCAs: pool, ServerName: "other.test"}})
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitFailed)
	if len(run.Errors) != 1 || !strings.Contains(run.Errors[0].Message, "certificate is valid for valkey.test, not other.test") {
		t.Errorf("wrong name: errors %v", run.Errors)
	}
	// Without a name, the address dialled is the name verified (the
	// certificate holds 127.0.0.1).
	run = probeRun(t, Options{Addrs: []string{tlsAddr}, TLS: &tls.Config{RootCAs: pool}})
	wantVerdict(t, run, report.Safe, report.Safe, report.Available, 0)
	// Verification cannot be turned off.
	if _, err := Run(servertest.Loopback(t), Options{Addrs: []string{tlsAddr}, TLS: &tls.Config{InsecureSkipVerify: true}}); err == nil || !strings.Contains(err.Error(), "cannot be turned off") {
		t.Errorf("InsecureSkipVerify: err %v", err)
	}
}

// TestProbeTLSDiscoveredNodes: with TLS on, a node the probe discovers is
// contacted with TLS too, never in plain text, even where only a plain
// listener answers. The replica announces a recorder's port.
func TestProbeTLSDiscoveredNodes(t *testing.T) {
	dir := t.TempDir()
	caPEM, certFile, keyFile := testCerts(t, dir)
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	p := servertest.Start(t, servertest.Config{Args: []string{"--tls-port", "{busport}", "--tls-cert-file", certFile,
		"--tls-key-file", keyFile, "--tls-ca-cert-file", caFile, "--tls-auth-clients", "no"}})
	first := make(chan []byte, 8)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			buf := make([]byte, 3)
			n, _ := io.ReadFull(c, buf)
			first <- buf[:n]
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	r := servertest.Start(t, servertest.Config{Args: []string{"--replica-announce-port", port}})
	r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	waitUntil(t, "the primary lists its replica at the recorder", func() bool {
		return strings.Contains(p.Do(t, "INFO", "replication"), "port="+port+",state=online")
	})
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	run := probeRun(t, Options{Addrs: []string{net.JoinHostPort("127.0.0.1", strconv.Itoa(p.BusPort))}, TLS: &tls.Config{RootCAs: pool, ServerName: "valkey.test"}, Timeout: time.Second})
	select {
	case b := <-first:
		// A TLS connection opens with a handshake record (0x16, version 3.x);
		// a RESP command would open with '*'.
		if len(b) < 2 || b[0] != 0x16 || b[1] != 3 {
			t.Errorf("the discovered node received %q first, not a TLS handshake", b)
		}
	default:
		t.Fatalf("the probe never contacted the discovered node at %s", l.Addr())
	}
	if got := rulesAt(run, l.Addr().String()); !slices.Contains(got, "LA208") {
		t.Errorf("discovered node: findings %v, want LA208", got)
	}
}

// testCerts writes a CA and a server certificate for valkey.test and
// 127.0.0.1, and returns the CA's PEM and the server's cert and key files.
func testCerts(t *testing.T, dir string) (caPEM []byte, certFile, keyFile string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "lockaudit test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "valkey.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"valkey.test"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "server.pem"), filepath.Join(dir, "server.key")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), certFile, keyFile
}

// TestProbeDurabilityFindings checks LA204, LA205 and LA206 on real
// servers, node by node: each fires exactly where its setting is.
func TestProbeDurabilityFindings(t *testing.T) {
	durable := []string{"--appendonly", "yes", "--appendfsync", "always"}
	n := servertest.StartReplication(t,
		// min-replicas-to-write 0 (the default) with two replicas: LA204.
		servertest.Node{Config: servertest.Config{Args: append(durable, "--maxmemory-policy", "noeviction")}},
		// appendonly no: LA205; maxmemory with volatile-lru: LA206.
		servertest.Node{Config: servertest.Config{Args: []string{"--maxmemory", "100mb", "--maxmemory-policy", "volatile-lru"}}, Of: 0},
		// fsync every second: LA205; a policy without maxmemory evicts nothing.
		servertest.Node{Config: servertest.Config{Args: []string{"--appendonly", "yes", "--appendfsync", "everysec", "--maxmemory", "0", "--maxmemory-policy", "volatile-lru"}}, Of: 0},
	)
	// min-replicas-to-write 1 with a replica: no LA204; durable, no eviction.
	m := servertest.StartReplication(t,
		servertest.Node{Config: servertest.Config{Args: append(durable, "--min-replicas-to-write", "1")}},
		servertest.Node{Config: servertest.Config{Args: append(durable, "--maxmemory", "100mb", "--maxmemory-policy", "noeviction")}, Of: 0},
	)
	run := probeRun(t, Options{Addrs: []string{n[0].Addr, m[0].Addr}})
	var got []string
	for _, f := range run.Findings {
		if f.Rule == "LA204" || f.Rule == "LA205" || f.Rule == "LA206" {
			got = append(got, f.Node+" "+string(f.Rule)+": "+f.Message[strings.Index(f.Message, ": ")+2:])
		}
	}
	slices.Sort(got)
	want := []string{
		n[0].Addr + " LA204: min-replicas-to-write 0 on a primary with 2 replicas",
		n[1].Addr + " LA205: appendonly no",
		n[1].Addr + " LA206: maxmemory 104857600, maxmemory-policy volatile-lru (evicts exactly the keys with a TTL: every lock)",
		n[2].Addr + " LA205: appendonly yes, appendfsync everysec",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestProbeInterrupted: when the caller cancels (Ctrl-C), Run returns no
// report and an error wrapping context.Canceled that does not speak of
// -deadline; it does not wait for the node that never answers.
func TestProbeInterrupted(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		close(accepted)
		for c := range accepted {
			c.Close()
		}
	})
	ctx, cancel := context.WithCancel(servertest.Loopback(t))
	defer cancel()
	go func() {
		c := <-accepted // the probe is waiting on the node: interrupt it
		accepted <- c
		cancel()
	}()
	run, err := Run(ctx, Options{Addrs: []string{l.Addr().String()}, Timeout: time.Hour, Deadline: time.Hour})
	if run != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: report %v, error %v; want no report and context.Canceled", run != nil, err)
	}
	if strings.Contains(err.Error(), "deadline") {
		t.Errorf("an interruption is worded as the deadline: %v", err)
	}
}
