package conform

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/internal/fakenode"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// scratchTTLs lists the scratch keys on s with their PTTL.
func scratchTTLs(t testing.TB, s *servertest.Server) map[string]string {
	t.Helper()
	c, err := resp.Dial(s.Addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v, err := c.Do("READONLY"); err != nil || v.Kind == resp.Err && !strings.Contains(v.Str, "cluster support disabled") {
		t.Fatalf("READONLY: %v %v", v, err)
	}
	out := map[string]string{}
	cursor := "0"
	for {
		v, err := c.Do("SCAN", cursor, "MATCH", DefaultPrefix+"*", "COUNT", "1000")
		if err != nil || v.Kind != resp.Array || len(v.Elems) != 2 {
			t.Fatalf("SCAN: %v %v", v, err)
		}
		for _, k := range v.Elems[1].Elems {
			ttl, err := c.Do("PTTL", k.Str)
			if err != nil {
				t.Fatal(err)
			}
			out[k.Str] = ttl.String()
		}
		if cursor = v.Elems[0].Str; cursor == "0" {
			return out
		}
	}
}

// wantEveryTTL fails on a scratch key without a TTL (PTTL -1) on s.
func wantEveryTTL(t testing.TB, s *servertest.Server, when string) int {
	t.Helper()
	keys := scratchTTLs(t, s)
	for k, ttl := range keys {
		if n, err := strconv.Atoi(ttl); err != nil || n <= 0 {
			t.Errorf("%s: scratch key %s on %s has PTTL %s: it would outlive a crash", when, k, s.Addr, ttl)
		}
	}
	return len(keys)
}

// TestConformEveryKeyHasATTL: after every step, every scratch key on the
// primary and on its replica carries a TTL: the LA104 trap drops its key's
// TTL and restores it in one transaction, so a crash or a partition at any
// point leaves nothing behind for longer than -ttl.
func TestConformEveryKeyHasATTL(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	seen := 0
	opt := Options{Probe: probe.Options{Addrs: []string{n[0].Addr}}, afterStep: func(step string) {
		for _, s := range n {
			seen += wantEveryTTL(t, s, "after "+step)
		}
	}}
	run := conformRun(t, opt)
	st := statuses(run)
	if st[n[0].Addr+"|"+trapStep] != report.StepPass || st[n[1].Addr+"|after "+trapStep] != report.StepPass || seen == 0 {
		t.Errorf("trap %q, on the replica %q, %d keys checked; want pass, pass, some", st[n[0].Addr+"|"+trapStep], st[n[1].Addr+"|after "+trapStep], seen)
	}
	wantNoKeyLeft(t, n...)
}

// TestConformPartitionAfterTheTrap: the network to the primary (a
// loopback proxy) is cut right after the LA104 trap. The cleanup cannot
// reach it and says so; every scratch key left there still expires.
func TestConformPartitionAfterTheTrap(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	proxy := servertest.StartProxy(t, s.Addr)
	opt := Options{Probe: probe.Options{Addrs: []string{proxy.Addr}, Timeout: time.Second, Deadline: 8 * time.Second}, afterStep: func(step string) {
		if step == trapStep {
			proxy.Partition()
		}
	}}
	run := conformRun(t, opt)
	st := statuses(run)
	if st[proxy.Addr+"|"+trapStep] != report.StepPass || st[proxy.Addr+"|cleanup"] != report.StepError {
		t.Errorf("trap %q, cleanup %q; want pass, then error (unreachable)", st[proxy.Addr+"|"+trapStep], st[proxy.Addr+"|cleanup"])
	}
	if left := wantEveryTTL(t, s, "after the partition"); left == 0 {
		t.Errorf("no scratch key left behind by the partition: the test proves nothing")
	}
	if code := report.ExitCode(run); code != report.ExitUnknown {
		t.Errorf("exit %d, want 4", code)
	}
}

// TestConformKilledAtTheTrap: conform killed with SIGKILL (nothing can
// clean up) right after the LA104 trap leaves scratch keys that all
// expire within -ttl.
func TestConformKilledAtTheTrap(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformChildProcess$")
	cmd.Env = append(os.Environ(), "LOCKAUDIT_CONFORM_CHILD="+s.Addr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	for lines.Scan() && lines.Text() != "AT "+trapStep {
	}
	if lines.Err() != nil || lines.Text() != "AT "+trapStep {
		t.Fatalf("the child never reached the trap: %v\n%s", lines.Err(), stderr.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if left := wantEveryTTL(t, s, "after SIGKILL"); left == 0 {
		t.Errorf("no scratch key left behind by SIGKILL: the test proves nothing")
	}
}

// TestConformChildProcess is TestConformKilledAtTheTrap's conform process:
// with LOCKAUDIT_CONFORM_CHILD=ADDR it runs conform on ADDR, prints "AT
// step" after each step and waits to be killed at the trap.
func TestConformChildProcess(t *testing.T) {
	addr := os.Getenv("LOCKAUDIT_CONFORM_CHILD")
	if addr == "" {
		t.Skip("the process TestConformKilledAtTheTrap kills")
	}
	Run(servertest.Loopback(t), Options{Probe: probe.Options{Addrs: []string{addr}, Timeout: 5 * time.Second}, afterStep: func(step string) {
		fmt.Println("AT " + step)
		if step == trapStep {
			time.Sleep(time.Hour) // until killed
		}
	}})
}

// TestConformTTLBounds: -ttl has a documented minimum and maximum.
func TestConformTTLBounds(t *testing.T) {
	for _, ttl := range []time.Duration{MinTTL - time.Millisecond, MaxTTL + time.Second} {
		_, err := Run(servertest.Loopback(t), Options{Probe: probe.Options{Addrs: []string{"127.0.0.1:1"}}, TTL: ttl})
		if err == nil || !strings.Contains(err.Error(), "scratch TTL") {
			t.Errorf("TTL %s: %v, want refused", ttl, err)
		}
	}
}

// wantNotTested checks that the steps are "error" with the refusal and
// "not tested", that no LA213 finding comes of a refusal, and exit 4.
func wantNotTested(t *testing.T, run *report.Run, node, refusal string, steps ...string) {
	t.Helper()
	rows := map[string]report.ConformStep{}
	for _, n := range run.Conform {
		if n.Node == node {
			for _, s := range n.Steps {
				rows[s.Step] = s
			}
		}
	}
	for _, step := range steps {
		r := rows[step]
		if r.Status != report.StepError || !strings.Contains(r.Got, refusal) || !strings.Contains(r.Got, "not tested") {
			t.Errorf("%s step %q: %q %q, want error: %s … not tested", node, step, r.Status, r.Got, refusal)
		}
	}
	for _, f := range run.Findings {
		if f.Node == node && f.Rule == "LA213" {
			t.Errorf("a refusal is an LA213 finding: %s", f.Message)
		}
	}
	if code := report.ExitCode(run); code != report.ExitUnknown {
		t.Errorf("exit %d, want 4", code)
	}
}

// TestConformNoPermission: a conform user without +delifeq, and one whose
// keys do not cover the scratch prefix, get "not tested" where the server
// refuses them (NOPERM), never an LA213 failure.
func TestConformNoPermission(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	s.AddUser(t, "nodelifeq", "pw-1", strings.Replace(ConformACL, " +delifeq", "", 1))
	s.AddUser(t, "otherkeys", "pw-2", strings.Replace(ConformACL, "~lockaudit:conform:*", "~other:*", 1))
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{s.Addr}, User: "nodelifeq", Password: "pw-1", Uses: []rules.Command{rules.UseDELIFEQ, rules.UseIFEQ}}})
	wantNotTested(t, run, s.Addr, "NOPERM", "release, stale token", "release")
	if st := statuses(run); st[s.Addr+"|acquire"] != report.StepPass || st[s.Addr+"|cleanup"] != report.StepPass {
		t.Errorf("acquire %q, cleanup %q; want pass", st[s.Addr+"|acquire"], st[s.Addr+"|cleanup"])
	}
	wantNoKeyLeft(t, s)

	run = conformRun(t, Options{Probe: probe.Options{Addrs: []string{s.Addr}, User: "otherkeys", Password: "pw-2"}})
	wantNotTested(t, run, s.Addr, "NOPERM", "scratch keys")
	wantNoKeyLeft(t, s)
}

// TestConformSlotMoving: in a cluster whose first shard's slots are all
// migrating (a resharding under way), the scratch keys' slot answers ASK:
// that shard is not tested, not failed; the other shard passes.
func TestConformSlotMoving(t *testing.T) {
	c := servertest.StartCluster(t, servertest.Shard{}, servertest.Shard{})
	src, dst := c.Shards[0][0], c.Shards[1][0]
	to := dst.Do(t, "CLUSTER", "MYID")
	// The first shard's slots (StartCluster splits them evenly), in one
	// pipeline: the node saves its cluster config once per batch.
	conn, err := net.Dial("tcp", src.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var cmds bytes.Buffer
	for slot := range 16384 / 2 {
		s := strconv.Itoa(slot)
		fmt.Fprintf(&cmds, "*5\r\n$7\r\nCLUSTER\r\n$7\r\nSETSLOT\r\n$%d\r\n%s\r\n$9\r\nMIGRATING\r\n$%d\r\n%s\r\n", len(s), s, len(to), to)
	}
	if _, err := conn.Write(cmds.Bytes()); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	for slot := range 16384 / 2 {
		if v, err := resp.Read(r); err != nil || v.Kind == resp.Err {
			t.Fatalf("SETSLOT %d MIGRATING: %v %v", slot, v, err)
		}
	}
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{src.Addr}}})
	wantNotTested(t, run, src.Addr, "ASK", "scratch keys")
	if st := statuses(run); st[dst.Addr+"|acquire"] != report.StepPass || st[dst.Addr+"|cleanup"] != report.StepPass {
		t.Errorf("the other shard: acquire %q, cleanup %q; want pass", st[dst.Addr+"|acquire"], st[dst.Addr+"|cleanup"])
	}
}

// TestConformSlotMoved: the scratch keys' slot moves to another shard
// right after the first step; what the primary then answers (MOVED) leaves
// the following steps not tested, not failed.
func TestConformSlotMoved(t *testing.T) {
	c := servertest.StartCluster(t, servertest.Shard{}, servertest.Shard{})
	src, dst := c.Shards[0][0], c.Shards[1][0]
	to := dst.Do(t, "CLUSTER", "MYID")
	var once sync.Once
	opt := Options{Probe: probe.Options{Addrs: []string{src.Addr}}, afterStep: func(step string) {
		if step != "acquire" {
			return
		}
		keys := scratchTTLs(t, src)
		if len(keys) == 0 {
			return // the other shard's steps
		}
		once.Do(func() {
			for k := range keys {
				slot := src.Do(t, "CLUSTER", "KEYSLOT", k)
				// Give the slot away in one transaction: the node has keys
				// there, and must not serve the slot as unassigned between.
				conn, err := resp.Dial(src.Addr, 10*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				for _, args := range [][]string{{"MULTI"}, {"CLUSTER", "DELSLOTS", slot}, {"CLUSTER", "SETSLOT", slot, "NODE", to}, {"EXEC"}} {
					if v, err := conn.Do(args...); err != nil || v.Kind == resp.Err {
						t.Fatalf("%v: %v %v", args, v, err)
					}
				}
				return
			}
		})
	}}
	run := conformRun(t, opt)
	wantNotTested(t, run, src.Addr, "MOVED", "acquire while held", "acquire + fence", "cleanup")
}

// TestConformRedactsThePassword: a node that echoes the conform user's
// password in its replies (no real server does; a fake one) never puts it
// in the report.
func TestConformRedactsThePassword(t *testing.T) {
	const pw = "s3cret-pw-8812"
	addr := fakenode.Start(t, fakenode.WithHello(fakenode.Standalone(func(cmd []string) []byte {
		return []byte("-ERR no, and your password is " + pw + "\r\n")
	})))
	run := conformRun(t, Options{Probe: probe.Options{Addrs: []string{addr}, Password: pw}})
	if len(run.Conform) == 0 || len(run.Conform[0].Steps) == 0 {
		t.Fatalf("no step ran: %+v", run.Conform)
	}
	for _, format := range []string{"json", "text"} {
		var b bytes.Buffer
		render.Render(&b, run, format)
		if strings.Contains(b.String(), pw) || !strings.Contains(b.String(), "[redacted]") {
			t.Errorf("the %s report holds the password, or shows no redaction:\n%s", format, b.String())
		}
	}
}

// TestConformAtTheNodeCap: a cluster of MaxNodes nodes whose members are
// all black-holed. conform dials none of them again after the discovery,
// reports each not tested with why, and no dial it started outlives it.
func TestConformAtTheNodeCap(t *testing.T) {
	addr := fakenode.Start(t, fakenode.WithHello(fakenode.Cluster(fakenode.Members(probe.MaxNodes-1))))
	ctx, holes := fakenode.BlackHoled(t)
	run, err := Run(ctx, Options{Probe: probe.Options{Addrs: []string{addr}, Timeout: 30 * time.Second, Deadline: 4 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	members := 0
	for _, n := range run.Conform {
		if !fakenode.Unanswered(n.Node) {
			continue
		}
		members++
		if !strings.Contains(n.Error, "not tested") || len(n.Steps) != 0 {
			t.Errorf("member %+v, want not tested", n)
			break
		}
	}
	if members < probe.MaxNodes-2 {
		t.Errorf("%d members in the report, want every one", members)
	}
	if again := holes.Redialled(); len(again) > 0 {
		t.Errorf("%d members dialled again after the discovery, e.g. %s", len(again), again[0])
	}
	holes.WantNoneWaiting(t)
}
