package conform

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// TestAllowlistsAreExactly writes both allowlists out.
func TestAllowlistsAreExactly(t *testing.T) {
	flat := func(c probe.Commands) string {
		var out []string
		for name, subs := range c {
			if subs == nil {
				out = append(out, name)
			}
			for s := range subs {
				out = append(out, name+" "+s)
			}
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got, want := flat(Writes), "CLUSTER NODES,DEL,DELEX,DELIFEQ,DISCARD,EVAL,EXEC,GET,INCR,MULTI,PEXPIRE,PTTL,SET,WAIT"; got != want {
		t.Errorf("Writes = %s\nwant     %s", got, want)
	}
	if got, want := flat(Reads), "GET,PTTL,READONLY"; got != want {
		t.Errorf("Reads = %s, want %s", got, want)
	}
	w := scratchOnly("scratch:", Writes)
	for _, args := range [][]string{
		{"SET", "scratch:{x}:lock", "t", "NX", "PX", "100"}, {"DEL", "scratch:a", "scratch:b"}, {"MULTI"}, {"EXEC"},
		{"WAIT", "1", "100"}, {"DELIFEQ", "scratch:k", "t"}, {"cluster", "nodes"}, {"EVAL", luaRelease, "1", "scratch:k", "t"},
	} {
		if err := w(args); err != nil {
			t.Errorf("%v refused: %v", args, err)
		}
	}
	for _, args := range [][]string{
		{"SET", "lock:job", "t"}, {"DEL", "scratch:a", "lock:job"}, {"DEL"}, {"SET"}, {"GET", "other"}, {"FLUSHALL"},
		{"EVAL", "return 1", "0"}, {"CLUSTER", "FAILOVER"}, {"UNLINK", "scratch:a"}, {"RENAME", "scratch:a", "b"},
		{"PEXPIRE", "lock:job", "1"}, {"INCR", "fence:job"}, {"SET", "Scratch:x", "t"},
		{"EVAL", luaRelease, "1", "lock:job", "t"}, {"EVAL", luaRelease, "2", "scratch:a", "scratch:b", "t"},
		{"EVAL", "return redis.call('FLUSHALL')", "1", "scratch:k", "t"}, {"EVAL", luaRelease, "0", "t"},
	} {
		if err := w(args); err == nil {
			t.Errorf("%v allowed", args)
		}
	}
	r := scratchOnly("scratch:", Reads)
	for _, args := range [][]string{{"SET", "scratch:a", "t"}, {"DEL", "scratch:a"}, {"GET", "lock:job"}} {
		if err := r(args); err == nil {
			t.Errorf("replica allowlist allowed %v", args)
		}
	}
}

func TestCRC16AndSlots(t *testing.T) {
	if got := crc16([]byte("123456789")); got != 0x31C3 {
		t.Errorf("crc16 check value %#x, want 0x31c3", got)
	}
	if got := crc16([]byte("foo")) % 16384; got != 12182 { // CLUSTER KEYSLOT foo
		t.Errorf("slot of foo %d, want 12182", got)
	}
	nodes := "abc 127.0.0.1:7001@17001 master - 0 0 1 connected 5461-10922\n" +
		"def 127.0.0.1:7000@17000 myself,master - 0 0 2 connected 0-100 200 [300->-xyz] 5000-5460\n"
	got, err := ownSlots(nodes)
	if err != nil || fmt.Sprint(got) != "[[0 100] [200 200] [5000 5460]]" {
		t.Errorf("ownSlots = %v, %v", got, err)
	}
	for _, bad := range []string{"", "abc 1:1@2 myself,master - 0 0 1 connected\n", "abc 1:1@2 myself,master - 0 0 1 connected 9-3\n"} {
		if _, err := ownSlots(bad); err == nil {
			t.Errorf("ownSlots(%q) accepted", bad)
		}
	}
}

func conformRun(t *testing.T, opt Options) *report.Run {
	t.Helper()
	if opt.Probe.Timeout == 0 {
		opt.Probe.Timeout = 5 * time.Second
	}
	run, err := Run(servertest.Loopback(t), opt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if testing.Verbose() {
		var b strings.Builder
		render.Render(&b, run, "text")
		t.Logf("conform report:\n%s", b.String())
	}
	return run
}

// statuses maps "node|step" to the status.
func statuses(run *report.Run) map[string]string {
	out := map[string]string{}
	for _, n := range run.Conform {
		for _, s := range n.Steps {
			out[n.Node+"|"+s.Step] = s.Status
		}
	}
	return out
}

// wantNoKeyLeft checks DBSIZE and SCAN on every node: conform left nothing.
func wantNoKeyLeft(t *testing.T, nodes ...*servertest.Server) {
	t.Helper()
	if len(nodes) > 1 {
		servertest.WaitOffsets(t, nodes[0], nodes[1:]...)
	}
	for _, n := range nodes {
		if got := n.Do(t, "DBSIZE"); got != "0" {
			t.Errorf("%s: DBSIZE %s after conform, want 0", n.Addr, got)
		}
		if got := n.Do(t, "SCAN", "0", "MATCH", DefaultPrefix+"*", "COUNT", "1000"); got != `["0" []]` {
			t.Errorf("%s: SCAN finds %s", n.Addr, got)
		}
	}
}

var primarySteps = []string{"scratch keys", "acquire", "acquire while held", "acquire + fence", "acquire + fence while held",
	"replica ack", "extend", "extend a lost lock", "release, stale token", "release", "extend without PX (LA104 trap)", "extend with PX after the trap", "cleanup"}

func TestConformPassesOnValkey91(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	mons := []*servertest.Monitor{n[0].Monitor(t), n[1].Monitor(t)}
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{n[0].Addr}}})
	st := statuses(run)
	for _, s := range primarySteps {
		if st[n[0].Addr+"|"+s] != report.StepPass {
			t.Errorf("primary step %q: %q, want pass", s, st[n[0].Addr+"|"+s])
		}
	}
	if st[n[0].Addr+"|DELEX release"] != report.StepSkipped {
		t.Errorf("DELEX on 9.1: %q, want skipped (9.1 has no DELEX)", st[n[0].Addr+"|DELEX release"])
	}
	for _, s := range []string{"after acquire", "after acquire + fence", "after extend", "after release", "after extend without PX (LA104 trap)", "after extend with PX after the trap", "after cleanup", "if promoted: release (DELIFEQ)"} {
		if st[n[1].Addr+"|"+s] != report.StepPass {
			t.Errorf("replica row %q: %q, want pass", s, st[n[1].Addr+"|"+s])
		}
	}
	if len(run.Findings) != 0 || report.ExitCode(run) != 0 {
		t.Errorf("findings %+v, exit %d; want none, 0", run.Findings, report.ExitCode(run))
	}
	// What reached the servers: on the primary only scratch keys, on the
	// replica only reads.
	for _, c := range mons[0].Stop(t) {
		if keys, _ := keyArgs(c.Args); len(keys) > 0 {
			for _, k := range keys {
				if !strings.HasPrefix(k, DefaultPrefix) {
					t.Errorf("primary: %v touches a key outside the scratch prefix", c.Args)
				}
			}
		}
	}
	for _, c := range mons[1].Stop(t) {
		if c.Client == n[0].Addr {
			continue // replicated from the primary
		}
		switch c.Name() {
		case "get", "pttl", "hello", "client|setname", "info", "role", "time", "command|info", "command|docs", "config|get", "ping":
		default:
			t.Errorf("replica received %v from %s", c.Args, c.Client)
		}
	}
	wantNoKeyLeft(t, n...)
}

// TestConformMixedFleet: a 9.1 primary with an 8.1 and an 8.0 replica (a
// rolling upgrade). The primary passes; the 8.0 replica silently keeps the
// old value of the trap's SET IFEQ without PX; both replicas lack commands
// they would need once promoted.
func TestConformMixedFleet(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81, servertest.Valkey80)
	n := servertest.StartReplication(t, servertest.Node{},
		servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0},
		servertest.Node{Config: servertest.Config{Version: servertest.Valkey80}, Of: 0})
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{n[0].Addr}}})
	st := statuses(run)
	p, r81, r80 := n[0].Addr, n[1].Addr, n[2].Addr
	for _, s := range primarySteps {
		if st[p+"|"+s] != report.StepPass {
			t.Errorf("9.1 primary step %q: %q, want pass", s, st[p+"|"+s])
		}
	}
	want := map[string]string{
		r80 + "|after extend without PX (LA104 trap)": report.StepFail, // kept the old value
		r80 + "|after extend with PX after the trap":  report.StepPass, // SET PXAT converges it
		r81 + "|after extend without PX (LA104 trap)": report.StepPass,
		r80 + "|after release":                        report.StepPass, // DELIFEQ reaches it as DEL
		r81 + "|if promoted: release (DELIFEQ)":       report.StepMissing,
		r81 + "|if promoted: extend (SET IFEQ)":       report.StepPass,
		r80 + "|if promoted: release (DELIFEQ)":       report.StepMissing,
		r80 + "|if promoted: extend (SET IFEQ)":       report.StepMissing,
		r80 + "|after cleanup":                        report.StepPass,
		r81 + "|after cleanup":                        report.StepPass,
	}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("%s: %q, want %q", k, st[k], v)
		}
	}
	var trap string
	for _, f := range run.Findings {
		if f.Node == r80 && strings.Contains(f.Message, "LA104 trap") {
			trap = f.Message
		}
		if f.Node == p {
			t.Errorf("finding on the 9.1 primary: %s", f.Message)
		}
	}
	if !strings.Contains(trap, "token E") || !strings.Contains(trap, "token F") {
		t.Errorf("the 8.0 replica's trap finding does not show old and new value: %q", trap)
	}
	if report.ExitCode(run) != report.ExitFindings {
		t.Errorf("exit %d, want 3", report.ExitCode(run))
	}
	wantNoKeyLeft(t, n...)
}

// TestConformOldPrimaries: on 8.1 DELIFEQ is missing; on 8.0 SET IFEQ too.
func TestConformOldPrimaries(t *testing.T) {
	for _, tc := range []struct {
		line    string
		missing []string
	}{
		{servertest.Valkey81, []string{"release, stale token", "release"}},
		{servertest.Valkey80, []string{"extend", "extend a lost lock", "release, stale token", "release", "extend without PX (LA104 trap)", "extend with PX after the trap"}},
	} {
		t.Run(tc.line, func(t *testing.T) {
			s := servertest.Start(t, servertest.Config{Version: tc.line})
			run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{s.Addr}}})
			st := statuses(run)
			for _, step := range primarySteps {
				want := report.StepPass
				if slices.Contains(tc.missing, step) {
					want = report.StepMissing
				}
				if st[s.Addr+"|"+step] != want {
					t.Errorf("step %q: %q, want %q", step, st[s.Addr+"|"+step], want)
				}
			}
			if got := len(run.Findings); got != len(tc.missing) || report.ExitCode(run) != report.ExitFindings {
				t.Errorf("%d findings (exit %d), want %d (exit 3): %+v", got, report.ExitCode(run), len(tc.missing), run.Findings)
			}
			wantNoKeyLeft(t, s)
		})
	}
}

// TestConformInterrupted: an interrupt between steps still deletes every
// scratch key, on the primary and (replicated) on the replica.
func TestConformInterrupted(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	for at, next := range map[string]string{"acquire + fence": "release", "extend without PX (LA104 trap)": "extend with PX after the trap"} {
		ctx, cancel := context.WithCancel(servertest.Loopback(t))
		var leftAt int64
		opt := Options{Probe: probe.Options{Addrs: []string{n[0].Addr}, Timeout: 5 * time.Second}, afterStep: func(step string) {
			if step == at {
				fmt.Sscan(n[0].Do(t, "DBSIZE"), &leftAt) // keys exist at this point
				cancel()
			}
		}}
		run, err := Run(ctx, opt)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if leftAt == 0 {
			t.Errorf("interrupt at %q: no scratch key existed, the test proves nothing", at)
		}
		if len(run.Errors) == 0 || !strings.Contains(run.Errors[0].Message, "interrupted") || report.ExitCode(run) != report.ExitFailed {
			t.Errorf("interrupt at %q: errors %+v, exit %d", at, run.Errors, report.ExitCode(run))
		}
		st := statuses(run)
		if st[n[0].Addr+"|cleanup"] != report.StepPass || st[n[0].Addr+"|"+next] != "" {
			t.Errorf("interrupt at %q: cleanup %q, %s %q; want pass and not run", at, st[n[0].Addr+"|cleanup"], next, st[n[0].Addr+"|"+next])
		}
		wantNoKeyLeft(t, n...)
	}
}

func TestConformCluster(t *testing.T) {
	c := servertest.StartCluster(t,
		servertest.Shard{Replicas: []servertest.Config{{}}},
		servertest.Shard{Replicas: []servertest.Config{{}}})
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{c.Nodes[0].Addr}}})
	st := statuses(run)
	for _, sh := range c.Shards {
		for _, s := range primarySteps {
			if st[sh[0].Addr+"|"+s] != report.StepPass {
				t.Errorf("cluster primary %s step %q: %q", sh[0].Addr, s, st[sh[0].Addr+"|"+s])
			}
		}
		if st[sh[1].Addr+"|after extend"] != report.StepPass {
			t.Errorf("cluster replica %s: %q", sh[1].Addr, st[sh[1].Addr+"|after extend"])
		}
	}
	if report.ExitCode(run) != 0 {
		t.Errorf("exit %d, findings %+v", report.ExitCode(run), run.Findings)
	}
	for _, sh := range c.Shards {
		wantNoKeyLeft(t, sh...)
	}
}

// ConformACL is the documented ACL for lockaudit conform on Valkey 9.x
// (docs/fleet-commands.md): the probe's, plus the steps on the scratch
// prefix only.
const ConformACL = servertest.ProbeACL + " ~lockaudit:conform:* +set +get +pttl +incr +pexpire +delifeq +del +multi +exec +discard +wait +readonly"

func TestConformRestrictedUser(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	for _, s := range n {
		s.AddUser(t, "conform", "conform-pw", ConformACL)
		s.Do(t, "CONFIG", "RESETSTAT")
	}
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{n[0].Addr}, User: "conform", Password: "conform-pw"}})
	if report.ExitCode(run) != 0 {
		t.Errorf("exit %d, findings %+v", report.ExitCode(run), run.Findings)
	}
	for _, s := range n {
		for k, v := range s.Info(t, "commandstats") {
			if k != "cmdstat_delex" && strings.Contains(v, "rejected_calls=") && !strings.Contains(v, "rejected_calls=0") {
				t.Errorf("%s: %s %s", s.Addr, k, v)
			}
		}
	}
	wantNoKeyLeft(t, n...)
}

// TestConformFollowsFlavorAndUses: on Redis 8.6 the steps follow the code.
// Relying on DELEX and SET IFEQ, every step passes; relying on DELIFEQ,
// the release step is missing ("not available on Redis") and says what
// works there (DELEX IFEQ, or Valkey), never DELIFEQ; without -uses the
// native path of Redis (DELEX, SET IFEQ) is assumed, and the report says
// so. What the code does not rely on is skipped, not failed.
func TestConformFollowsFlavorAndUses(t *testing.T) {
	servertest.Require(t, servertest.Redis86)
	s := servertest.Start(t, servertest.Config{Version: servertest.Redis86})
	opt := func(uses ...rules.Command) Options {
		return Options{Probe: probe.Options{Addrs: []string{s.Addr}, Uses: uses}}
	}
	run := conformRun(t, opt(rules.UseDELEX, rules.UseIFEQ))
	st := statuses(run)
	for _, step := range []string{"acquire", "acquire + fence", "replica ack", "extend", "extend a lost lock", "DELEX release, stale token", "DELEX release", "extend without PX (LA104 trap)", "extend with PX after the trap", "cleanup"} {
		if st[s.Addr+"|"+step] != report.StepPass {
			t.Errorf("-uses delex,ifeq: step %q: %q, want pass", step, st[s.Addr+"|"+step])
		}
	}
	for _, step := range []string{"release, stale token", "release", "Lua release"} {
		if st[s.Addr+"|"+step] != report.StepSkipped {
			t.Errorf("-uses delex,ifeq: step %q: %q, want skipped (not relied on)", step, st[s.Addr+"|"+step])
		}
	}
	if code := report.ExitCode(run); code != 0 || len(run.Findings) != 0 || run.UsesFrom != report.UsesNamed {
		t.Errorf("-uses delex,ifeq: exit %d, findings %+v, uses from %s; want 0, none, named", code, run.Findings, run.UsesFrom)
	}
	wantNoKeyLeft(t, s)

	run = conformRun(t, opt(rules.UseDELIFEQ))
	var release report.ConformStep
	for _, n := range run.Conform {
		for _, step := range n.Steps {
			if step.Step == "release" {
				release = step
			}
		}
	}
	if release.Status != report.StepMissing || !strings.Contains(release.Got, "not available on Redis") ||
		!strings.Contains(release.Advice, "release with DELEX key IFEQ token instead of DELIFEQ") || strings.Contains(release.Advice, "release with DELIFEQ") || release.Uses != rules.UseDELIFEQ {
		t.Errorf("-uses delifeq: release row %+v, want missing, not available on Redis, with the DELEX advice", release)
	}
	if code := report.ExitCode(run); code != report.ExitFindings {
		t.Errorf("-uses delifeq: exit %d, want 3", code)
	}
	found := false
	for _, f := range run.Findings {
		found = found || f.Rule == "LA213" && f.Subject == "release" && strings.Contains(f.Message, "what works there: release with DELEX key IFEQ token")
	}
	if !found {
		t.Errorf("-uses delifeq: no LA213 for the release with the advice: %+v", run.Findings)
	}
	wantNoKeyLeft(t, s)

	run = conformRun(t, opt())
	if run.UsesFrom != report.UsesAssumed || fmt.Sprint(run.UsedCommands()) != "[delex ifeq]" || report.ExitCode(run) != 0 {
		t.Errorf("no -uses on Redis: uses %v from %s, exit %d; want delex, ifeq assumed, exit 0", run.UsedCommands(), run.UsesFrom, report.ExitCode(run))
	}
	wantNoKeyLeft(t, s)
}

// TestConformPromotedReplicaFollowsUses: a 9.1 primary with a promotable
// 8.1 replica, for code that releases with DELIFEQ: the primary passes,
// the replica lacks DELIFEQ should it be promoted (LA213, with the upgrade
// that works); for code that releases with DELEX, the primary lacks it
// (9.1) and so does the replica, each told what works there.
func TestConformPromotedReplicaFollowsUses(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	p, r := n[0].Addr, n[1].Addr
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{p}, Uses: []rules.Command{rules.UseDELIFEQ}}})
	st := statuses(run)
	if st[p+"|release"] != report.StepPass || st[r+"|if promoted: release (DELIFEQ)"] != report.StepMissing || st[r+"|if promoted: extend (SET IFEQ)"] != "" {
		t.Errorf("-uses delifeq: primary release %q, replica if promoted DELIFEQ %q, SET IFEQ %q; want pass, missing, not checked",
			st[p+"|release"], st[r+"|if promoted: release (DELIFEQ)"], st[r+"|if promoted: extend (SET IFEQ)"])
	}
	var msg string
	for _, f := range run.Findings {
		if f.Node == r && f.Subject == "if promoted: release (DELIFEQ)" {
			msg = f.Message
		}
	}
	if !strings.Contains(msg, "can be promoted but lacks DELIFEQ") || !strings.Contains(msg, "upgrade "+r+" from valkey-8.1.1 to Valkey 9.0+") || strings.Contains(msg, "DELEX") {
		t.Errorf("replica finding %q, want the missing DELIFEQ and the upgrade, and no DELEX", msg)
	}
	if report.ExitCode(run) != report.ExitFindings {
		t.Errorf("exit %d, want 3", report.ExitCode(run))
	}
	wantNoKeyLeft(t, n...)

	run = conformRun(t, Options{Probe: probe.Options{Addrs: []string{p}, Uses: []rules.Command{rules.UseDELEX}}})
	st = statuses(run)
	if st[p+"|DELEX release"] != report.StepMissing || st[r+"|if promoted: release (DELEX)"] != report.StepMissing || st[p+"|release"] != report.StepSkipped {
		t.Errorf("-uses delex: primary DELEX %q, replica if promoted DELEX %q, DELIFEQ release %q; want missing, missing, skipped",
			st[p+"|DELEX release"], st[r+"|if promoted: release (DELEX)"], st[p+"|release"])
	}
	for _, c := range run.Conform {
		for _, step := range c.Steps {
			if c.Node == p && step.Step == "DELEX release" && !strings.Contains(step.Advice, "release with DELIFEQ key token instead of DELEX") {
				t.Errorf("9.1 primary lacking DELEX: advice %q, want DELIFEQ (it has it)", step.Advice)
			}
		}
	}
	wantNoKeyLeft(t, n...)
}

// TestConformLua: code that releases with Lua gets the Lua release run,
// with a stale and with the holder's token.
func TestConformLua(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{s.Addr}, Uses: []rules.Command{rules.UseLua}}})
	st := statuses(run)
	if st[s.Addr+"|Lua release, stale token"] != report.StepPass || st[s.Addr+"|Lua release"] != report.StepPass || st[s.Addr+"|release"] != report.StepSkipped {
		t.Errorf("Lua release %q / %q, DELIFEQ %q; want pass, pass, skipped", st[s.Addr+"|Lua release, stale token"], st[s.Addr+"|Lua release"], st[s.Addr+"|release"])
	}
	if report.ExitCode(run) != 0 {
		t.Errorf("exit %d, findings %+v", report.ExitCode(run), run.Findings)
	}
	wantNoKeyLeft(t, s)
}

// TestReplicasBelow: a primary's replicas are those that replicate it
// directly or through other replicas, in the fleet's order; a replica of
// a node outside the fleet, a cycle and another primary's replicas are
// not among them.
func TestReplicasBelow(t *testing.T) {
	node := func(addr, role, primary string) report.Node {
		return report.Node{Addr: addr, Role: role, Primary: primary}
	}
	nodes := []report.Node{
		node("p1", probe.RolePrimary, ""),
		node("r2", probe.RoleReplica, "r1"), // a replica of a replica, listed first
		node("r1", probe.RoleReplica, "p1"),
		node("p2", probe.RolePrimary, ""),
		node("q1", probe.RoleReplica, "p2"),
		node("x1", probe.RoleReplica, "gone:6379"),
		node("c1", probe.RoleReplica, "c2"),
		node("c2", probe.RoleReplica, "c1"),
	}
	addrs := func(ns []report.Node) string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Addr)
		}
		return strings.Join(out, ",")
	}
	got := replicasBelow(nodes)
	for primary, want := range map[string]string{"p1": "r2,r1", "p2": "q1", "gone:6379": "x1", "c1": "c1,c2", "r2": ""} {
		if a := addrs(got[primary]); a != want {
			t.Errorf("below %s: %q, want %q", primary, a, want)
		}
	}
}
