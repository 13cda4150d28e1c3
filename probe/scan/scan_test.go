package scan

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// TestAllowlistIsExactly writes the allowlist out: a command added to scan
// must be added here too, on purpose.
func TestAllowlistIsExactly(t *testing.T) {
	want := map[string][]string{
		"SCAN": nil, "DBSIZE": nil, "PTTL": nil, "TYPE": nil, "STRLEN": nil,
		"OBJECT": {"IDLETIME"}, "ROLE": nil, "READONLY": nil, "CLIENT": {"NO-TOUCH"},
		"INFO": {"KEYSPACE"}, "SELECT": nil,
	}
	got := map[string][]string{}
	for name, subs := range Allowed {
		got[name] = nil
		for s, ok := range subs {
			if ok {
				got[name] = append(got[name], s)
			}
		}
		sort.Strings(got[name])
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("scan's allowlist is\n  %v\nwant\n  %v", got, want)
	}
	for _, args := range [][]string{
		{"SCAN", "0", "COUNT", "10"}, {"PTTL", "k"}, {"object", "idletime", "k"}, {"CLIENT", "NO-TOUCH", "ON"}, {"READONLY"},
		{"INFO", "keyspace"}, {"SELECT", "3"},
	} {
		if err := allow(args); err != nil {
			t.Errorf("%v refused: %v", args, err)
		}
	}
	for _, args := range [][]string{
		{}, {"GET", "k"}, {"SET", "k", "v"}, {"DEL", "k"}, {"OBJECT", "FREQ", "k"}, {"OBJECT"}, {"CLIENT", "KILL", "ID", "1"},
		{"CLIENT"}, {"FLUSHALL"}, {"UNLINK", "k"}, {"EXPIRE", "k", "1"}, {"PERSIST", "k"}, {"KEYS", "*"}, {"DUMP", "k"},
		{"INFO"}, {"INFO", "all"}, {"SWAPDB", "0", "3"}, {"FLUSHDB"}, {"MOVE", "k", "3"},
	} {
		if err := allow(args); err == nil {
			t.Errorf("%v allowed", args)
		}
	}
}

func TestPacer(t *testing.T) {
	start := time.Unix(1000, 0)
	now := start
	var slept []time.Duration
	p := &pacer{rate: 5000, start: start, now: func() time.Time { return now },
		sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); now = now.Add(d); return nil }}
	ctx := context.Background()
	if err := p.wait(ctx); err != nil || len(slept) != 0 {
		t.Fatalf("first batch waited %v %v", slept, err)
	}
	p.n = 10000 // two seconds' worth, read instantly
	p.wait(ctx)
	if len(slept) != 1 || slept[0] != 2*time.Second {
		t.Errorf("after 10000 keys at 5000/s: slept %v, want [2s]", slept)
	}
	now = now.Add(5 * time.Second) // slow batches: no wait
	p.n = 20000
	p.wait(ctx)
	if len(slept) != 1 {
		t.Errorf("behind schedule, still slept: %v", slept)
	}
	off := &pacer{rate: 0, n: 1 << 40, start: start, now: func() time.Time { return start }, sleep: p.sleep}
	off.wait(ctx)
	if len(slept) != 1 {
		t.Errorf("rate 0 slept: %v", slept)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := p.wait(cancelled); err == nil {
		t.Errorf("wait on a cancelled context: no error")
	}
}

func TestParseScan(t *testing.T) {
	str := func(s string) resp.Value { return resp.Value{Kind: resp.Str, Str: s} }
	next, keys, err := parseScan(resp.Value{Kind: resp.Array, Elems: []resp.Value{str("17"), {Kind: resp.Array, Elems: []resp.Value{str("a"), str("b")}}}})
	if err != nil || next != "17" || !slices.Equal(keys, []string{"a", "b"}) {
		t.Errorf("parseScan = %q %v %v", next, keys, err)
	}
	for _, bad := range []resp.Value{
		{Kind: resp.Err, Str: "NOPERM no"}, {Kind: resp.Nil}, {Kind: resp.Array, Elems: []resp.Value{str("0")}},
		{Kind: resp.Array, Elems: []resp.Value{{Kind: resp.Int, Int: 0}, {Kind: resp.Array}}},
		{Kind: resp.Array, Elems: []resp.Value{str("0"), {Kind: resp.Array, Elems: []resp.Value{{Kind: resp.Int}}}}},
	} {
		if _, _, err := parseScan(bad); err == nil {
			t.Errorf("parseScan(%s) accepted", bad)
		}
	}
}

// seeded keys: the permanent lock keys each test must find, among others.
var (
	permanent = []string{"lock:perm:1", "jobs:lock", "Lock:Upper", "locks/registry"} // locks/registry is a hash
	longLease = "lock:long"                                                          // EX 86400: over a 10m max lease
	// Keys that must not be reported: a lock with a short TTL, words that
	// only contain "lock", and plenty of unrelated keys with and without TTL.
	harmless = []string{"lock:ok", "block:1", "clock", "mylock", "unlocked:x"}
)

// seed writes the keyspace through the node that owns each key (a cluster
// node answers MOVED for the others).
func seed(t *testing.T, nodes ...*servertest.Server) {
	t.Helper()
	conns := make([]*resp.Conn, len(nodes))
	for i, n := range nodes {
		c, err := resp.Dial(n.Addr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	do := func(args ...string) {
		t.Helper()
		var last resp.Value
		for _, c := range conns {
			v, err := c.Do(args...)
			if err != nil {
				t.Fatal(err)
			}
			if v.Kind != resp.Err {
				return
			}
			last = v
		}
		t.Fatalf("%v: %s", args, last)
	}
	for _, k := range permanent {
		if k == "locks/registry" {
			do("HSET", k, "job", "worker-7")
			continue
		}
		do("SET", k, "0123456789abcdef0123456789abcdef01234567")
	}
	do("SET", longLease, "tok", "EX", "86400")
	do("SET", "lock:ok", "tok", "PX", "600000")
	for _, k := range harmless[1:] {
		do("SET", k, "x")
	}
	for i := range 300 {
		if i%2 == 0 {
			do("SET", fmt.Sprintf("cache:%d", i), "v")
		} else {
			do("SET", fmt.Sprintf("session:%d", i), "v", "EX", "3600")
		}
	}
}

func options(t testing.TB, addrs ...string) Options {
	src, res, err := (*config.File)(nil).LockKeyPatterns()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Probe: probe.Options{Addrs: addrs, Timeout: 5 * time.Second}, Patterns: src, Match: res, MaxLease: 10 * time.Minute, Count: 50}
}

func scanRun(t *testing.T, opt Options) *report.Run {
	t.Helper()
	run, err := Run(servertest.Loopback(t), opt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if testing.Verbose() {
		var b strings.Builder
		render.Render(&b, run, "text")
		t.Logf("scan report:\n%s", b.String())
	}
	return run
}

var keyRE = regexp.MustCompile(`^lock key "([^"]+)"`)

// TestParseKeyspace: INFO keyspace's lines, sorted by database; junk is
// an error, never a silent database 0.
func TestParseKeyspace(t *testing.T) {
	got, err := parseKeyspace("# Keyspace\r\ndb3:keys=1,expires=0,avg_ttl=0,subexpiry=0\r\ndb0:keys=300,expires=150,avg_ttl=0\r\n")
	if err != nil || fmt.Sprint(got) != "[{0 300} {3 1}]" {
		t.Errorf("parseKeyspace = %v, %v", got, err)
	}
	if got, err := parseKeyspace("# Keyspace\r\n"); err != nil || len(got) != 0 {
		t.Errorf("an empty keyspace = %v, %v; want no database", got, err)
	}
	for _, bad := range []string{"dbx:keys=1", "db-1:keys=1", "db2:keys=-5", "db2:keys=lots"} {
		if _, err := parseKeyspace(bad); err == nil {
			t.Errorf("parseKeyspace(%q): no error", bad)
		}
	}
}

// keysOf lists the keys of a rule's findings.
func keysOf(run *report.Run, rule rules.ID) []string {
	var out []string
	for _, f := range run.Findings {
		if f.Rule == rule {
			if m := keyRE.FindStringSubmatch(f.Message); m != nil {
				out = append(out, m[1])
			}
		}
	}
	sort.Strings(out)
	return out
}

func wantExactly(t *testing.T, run *report.Run) {
	t.Helper()
	want := slices.Sorted(slices.Values(permanent))
	if got := keysOf(run, "LA211"); !slices.Equal(got, want) {
		t.Errorf("LA211 keys %q, want exactly %q", got, want)
	}
	if got := keysOf(run, "LA212"); !slices.Equal(got, []string{longLease}) {
		t.Errorf("LA212 keys %q, want exactly [%s]", got, longLease)
	}
	if len(run.Findings) != len(permanent)+1 {
		t.Errorf("%d findings, want %d: %+v", len(run.Findings), len(permanent)+1, run.Findings)
	}
	for _, f := range run.Findings {
		if strings.Contains(f.Message, "0123456789abcdef") {
			t.Errorf("a finding shows a value: %s", f.Message)
		}
	}
	for _, sh := range run.Scan.Shards {
		if !sh.Complete {
			t.Errorf("shard %s incomplete: %s", sh.Primary, sh.Note)
		}
	}
	if got := report.ExitCode(run); got != report.ExitFindings {
		t.Errorf("exit %d, want 3", got)
	}
}

func TestScanStandalone(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	seed(t, s)
	run := scanRun(t, options(t, s.Addr))
	wantExactly(t, run)
	if len(run.Scan.Shards) != 1 || run.Scan.Shards[0].ReadFrom != s.Addr || run.Scan.Shards[0].Keys != 310 {
		t.Errorf("shards %+v, want one read on %s with 310 keys", run.Scan.Shards, s.Addr)
	}
	var msg string
	for _, f := range run.Findings {
		if strings.Contains(f.Message, `"lock:perm:1"`) {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, "string of 40 bytes") || !strings.Contains(msg, "idle ") || !strings.Contains(msg, "read on primary "+s.Addr) {
		t.Errorf("LA211 message lacks type, length, idle time or node: %s", msg)
	}

	// A clean keyspace: exit 0; no max lease: lock:long is not reported.
	clean := servertest.Start(t, servertest.Config{})
	clean.Do(t, "SET", "lock:ok", "t", "PX", "60000")
	clean.Do(t, "SET", "block", "x")
	opt := options(t, clean.Addr)
	opt.MaxLease = 0
	if run := scanRun(t, opt); len(run.Findings) != 0 || report.ExitCode(run) != 0 {
		t.Errorf("clean keyspace: findings %+v, exit %d", run.Findings, report.ExitCode(run))
	}

	// Configured patterns replace the default.
	f, err := config.Parse("c.yaml", []byte("lock_keys: ['^mutex:']\n"))
	if err != nil {
		t.Fatal(err)
	}
	clean.Do(t, "SET", "mutex:orders", "t")
	opt.Patterns, opt.Match, _ = f.LockKeyPatterns()
	if got := keysOf(scanRun(t, opt), "LA211"); !slices.Equal(got, []string{"mutex:orders"}) {
		t.Errorf("with lock_keys ^mutex: found %q", got)
	}
}

// TestScanReadsReplicaAndSendsNoWrite: with a replica whose link is up the
// primary is not scanned at all, and MONITOR shows that only scan's
// allowlist and the probe's discovery reached the replica.
func TestScanReadsReplicaAndSendsNoWrite(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	seed(t, n[0])
	servertest.WaitOffsets(t, n[0], n[1])
	mons := []*servertest.Monitor{n[0].Monitor(t), n[1].Monitor(t)}
	run := scanRun(t, options(t, n[0].Addr))
	wantExactly(t, run)
	if sh := run.Scan.Shards; len(sh) != 1 || sh[0].ReadFrom != n[1].Addr || sh[0].Role != probe.RoleReplica {
		t.Errorf("shards %+v, want the primary's data read on replica %s", sh, n[1].Addr)
	}
	primaryCmds, replicaCmds := mons[0].Stop(t), mons[1].Stop(t)
	checkNoWrite(t, n[1].Addr, replicaCmds, n[0].Addr)
	checkNoWrite(t, n[0].Addr, primaryCmds, "")
	for _, c := range primaryCmds {
		if c.Name() == "scan" || c.Name() == "pttl" {
			t.Errorf("the primary was scanned: %v", c.Args)
		}
	}
	if !slices.ContainsFunc(replicaCmds, func(c servertest.Command) bool { return c.Name() == "scan" }) {
		t.Errorf("the replica saw no SCAN: %v", replicaCmds)
	}
}

// checkNoWrite fails on any command outside scan's and the probe's
// allowlists; replicated traffic from the primary (from) is skipped.
func checkNoWrite(t *testing.T, addr string, cmds []servertest.Command, from string) {
	t.Helper()
	allowed := map[string]bool{
		// the probe's discovery (probe.ReadOnlyCommands) and the handshake
		"hello": true, "auth": true, "client|setname": true, "ping": true, "info": true, "role": true, "time": true,
		"command|info": true, "command|docs": true, "config|get": true, "cluster|nodes": true, "cluster|shards": true,
		// scan
		"scan": true, "dbsize": true, "pttl": true, "type": true, "strlen": true, "object|idletime": true, "readonly": true, "client|no-touch": true,
		"select": true,
	}
	for _, c := range cmds {
		if from != "" && c.Client == from {
			continue
		}
		if !allowed[c.Name()] {
			t.Errorf("%s received %v from %s", addr, c.Args, c.Client)
		}
	}
}

func TestScanCluster(t *testing.T) {
	c := servertest.StartCluster(t,
		servertest.Shard{Replicas: []servertest.Config{{}}},
		servertest.Shard{Replicas: []servertest.Config{{}}})
	seed(t, c.Shards[0][0], c.Shards[1][0])
	for _, sh := range c.Shards {
		servertest.WaitOffsets(t, sh[0], sh[1])
	}
	mons := map[string]*servertest.Monitor{}
	for _, n := range c.Nodes {
		mons[n.Addr] = n.Monitor(t)
	}
	run := scanRun(t, options(t, c.Nodes[0].Addr))
	wantExactly(t, run)
	if len(run.Scan.Shards) != 2 {
		t.Fatalf("shards %+v, want 2", run.Scan.Shards)
	}
	var total int64
	for i, sh := range run.Scan.Shards {
		total += sh.Keys
		var replicas []string
		for _, s := range c.Shards {
			replicas = append(replicas, s[1].Addr)
		}
		if !slices.Contains(replicas, sh.ReadFrom) {
			t.Errorf("shard %d read on %s, want a replica (%v)", i, sh.ReadFrom, replicas)
		}
	}
	if total != 310 {
		t.Errorf("%d keys scanned over the shards, want 310", total)
	}
	for _, sh := range c.Shards {
		checkNoWrite(t, sh[0].Addr, mons[sh[0].Addr].Stop(t), "")
		checkNoWrite(t, sh[1].Addr, mons[sh[1].Addr].Stop(t), sh[0].Addr)
	}
}

// TestScanIncomplete: a shard that is not read to the end leaves the answer
// unknown (exit 4), and a fleet where nothing answers fails (exit 1).
func TestScanIncomplete(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	seed(t, s)
	opt := options(t, s.Addr)
	opt.Rate, opt.Count, opt.Deadline = 10, 10, 3*time.Second // 310 keys at 10/s cannot finish in 3s
	run := scanRun(t, opt)
	if sh := run.Scan.Shards; len(sh) != 1 || sh[0].Complete || !strings.Contains(sh[0].Note, "deadline") || sh[0].Keys == 0 || sh[0].Keys >= 310 {
		t.Errorf("shards %+v, want one incomplete at the deadline", sh)
	}
	// How many keys the scan reached by the deadline depends on the
	// machine: a permanent lock among them (an error) fails the run, else
	// the unread rest makes it unknown — never clean. Warnings (LA212) and
	// the probe's info findings do not decide it.
	want := report.ExitUnknown
	for _, f := range run.Active() {
		if f.Severity == rules.Error {
			want = report.ExitFindings
		}
	}
	if got := report.ExitCode(run); got != want {
		t.Errorf("exit %d, want %d (findings %+v)", got, want, run.Findings)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	run = scanRun(t, options(t, addr))
	if report.ExitCode(run) != report.ExitFailed || len(run.Errors) == 0 || !strings.Contains(run.Errors[0].Message, "connection refused") {
		t.Errorf("unreachable seed: exit %d, errors %+v", report.ExitCode(run), run.Errors)
	}

	// The primary down, its replica up: the data is still read.
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	n[0].Do(t, "SET", "lock:stuck", "t")
	servertest.WaitOffsets(t, n[0], n[1])
	n[0].Stop(t)
	run = scanRun(t, options(t, n[1].Addr))
	if got := keysOf(run, "LA211"); !slices.Equal(got, []string{"lock:stuck"}) {
		t.Errorf("primary down: LA211 keys %q (shards %+v)", got, run.Scan.Shards)
	}
}

// TestScanRestrictedUser runs scan as the user docs/fleet-commands.md
// tells operators to create: nothing it sends is refused.
func TestScanRestrictedUser(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	seed(t, n[0])
	servertest.WaitOffsets(t, n[0], n[1])
	for _, s := range n {
		s.AddUser(t, "scan", "scan-pw", ScanACL)
		s.Do(t, "CONFIG", "RESETSTAT")
	}
	opt := options(t, n[0].Addr)
	opt.Probe.User, opt.Probe.Password = "scan", "scan-pw"
	run := scanRun(t, opt)
	wantExactly(t, run)
	for _, s := range n {
		for k, v := range s.Info(t, "commandstats") {
			if strings.Contains(v, "rejected_calls=") && !strings.Contains(v, "rejected_calls=0") {
				t.Errorf("%s: %s %s", s.Addr, k, v)
			}
		}
	}
}

// ScanACL is the documented ACL for lockaudit scan (docs/fleet-commands.md):
// the probe's, plus read access to keys and the scan commands.
const ScanACL = servertest.ProbeACL + " %R~* +scan +dbsize +pttl +type +strlen +object|idletime +readonly +client|no-touch +select"

// TestScanEveryDatabase: a permanent lock key in database 3 (INFO keyspace
// lists db3) is found and reported with its database, on Valkey and on
// Redis 8.6; each database's coverage is in the report.
func TestScanEveryDatabase(t *testing.T) {
	for _, line := range []string{servertest.Valkey91, servertest.Redis86} {
		t.Run(line, func(t *testing.T) {
			servertest.Require(t, line)
			s := servertest.Start(t, servertest.Config{Version: line})
			s.Do(t, "SET", "lock:ok", "t", "PX", "600000")
			c, err := resp.Dial(s.Addr, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, args := range [][]string{{"SELECT", "3"}, {"SET", "lock:orders:42", "tok"}, {"SET", "cache:x", "v"}} {
				if v, err := c.Do(args...); err != nil || v.Kind == resp.Err {
					t.Fatalf("%v: %v %v", args, v, err)
				}
			}
			run := scanRun(t, options(t, s.Addr))
			if got := keysOf(run, "LA211"); !slices.Equal(got, []string{"lock:orders:42"}) {
				t.Fatalf("LA211 keys %q, want [lock:orders:42]", got)
			}
			f := run.Findings[0]
			if !strings.Contains(f.Message, `lock key "lock:orders:42" in database 3 has no TTL`) || f.Subject != "db3/lock:orders:42" {
				t.Errorf("finding %+v, want the key and database 3", f)
			}
			sh := run.Scan.Shards
			if len(sh) != 1 || !sh[0].Complete || len(sh[0].Databases) != 2 || sh[0].Databases[0].DB != 0 || sh[0].Databases[1].DB != 3 ||
				sh[0].Databases[1].Keys != 2 || sh[0].Databases[1].LockKeys != 1 || sh[0].Databases[1].Findings != 1 || sh[0].Keys != 3 {
				t.Errorf("shards %+v, want databases 0 and 3 read, db3 with 2 keys, 1 lock key, 1 finding", sh)
			}
			if code := report.ExitCode(run); code != report.ExitFindings {
				t.Errorf("exit %d, want 3", code)
			}
			var text strings.Builder
			render.Render(&text, run, "text")
			if !strings.Contains(text.String(), "db3: 2 keys, 1 lock key, 1 finding") {
				t.Errorf("the text report does not show database 3:\n%s", text.String())
			}
		})
	}
}

// TestScanClusterWithoutMemberList: a scan user that may not run
// cluster|nodes and cluster|shards sees one shard of a two-shard cluster;
// the scan is incomplete (exit 4) and says which fact is missing and the
// permission that gives it, as probe says UNKNOWN for the same user.
func TestScanClusterWithoutMemberList(t *testing.T) {
	c := servertest.StartCluster(t,
		servertest.Shard{Replicas: []servertest.Config{{}}},
		servertest.Shard{Replicas: []servertest.Config{{}}})
	seed(t, c.Shards[0][0], c.Shards[1][0])
	acl := strings.NewReplacer(" +cluster|shards", "", " +cluster|nodes", "").Replace(ScanACL)
	for _, n := range c.Nodes {
		n.AddUser(t, "scan", "scan-pw", acl)
	}
	opt := options(t, c.Shards[0][0].Addr)
	opt.Probe.User, opt.Probe.Password = "scan", "scan-pw"
	run := scanRun(t, opt)
	if code := report.ExitCode(run); code != report.ExitUnknown && code != report.ExitFindings {
		t.Errorf("exit %d, want 4 (or 3 for the permanent locks of the shard it did read)", code)
	}
	var gap *report.ScanShard
	for i, sh := range run.Scan.Shards {
		if !sh.Complete && strings.Contains(sh.Note, "members not all known") && sh.Primary == c.Shards[0][0].Addr {
			gap = &run.Scan.Shards[i]
		}
	}
	if gap == nil || !strings.Contains(gap.Note, "+cluster|nodes") || !strings.Contains(gap.Note, "CLUSTER SHARDS: NOPERM") {
		t.Fatalf("no incomplete entry naming the seed, the fact and the permission: %+v", run.Scan.Shards)
	}
	// The same run without its permanent locks is unknown, never clean.
	clean := *run
	clean.Findings = nil
	if code := report.ExitCode(&clean); code != report.ExitUnknown {
		t.Errorf("without findings: exit %d, want 4", code)
	}
	// The probe, for the same user, is unknown too.
	pr, err := probe.Run(servertest.Loopback(t), opt.Probe)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Verdict.Of(rules.NativeRelease).Safe != report.Unknown {
		t.Errorf("probe: release %s, want unknown", pr.Verdict.Of(rules.NativeRelease).Word())
	}
}
