package scan

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/internal/fakenode"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// TestScanLongKeyNames: what a scan keeps does not grow with the length
// of key names. Sixteen permanent lock keys with names of 900 KiB (a real
// server takes names up to 512 MB; each SCAN reply stays under the
// probe's 16 MiB) are each reported with their name cut to MaxKeyShown
// bytes, its length and the start of its SHA-256; a name of exactly
// MaxKeyShown bytes is shown whole. The JSON report of the scan stays
// small, and the findings over -limit are counted, not kept.
func TestScanLongKeyNames(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	c, err := resp.Dial(s.Addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	long := map[string]string{} // cut name shown → whole name
	for i := range 16 {
		k := fmt.Sprintf("lock:%02d:", i) + strings.Repeat("\x01", 900<<10)
		if v, err := c.Do("SET", k, "v"); err != nil || v.Kind == resp.Err {
			t.Fatalf("SET a long key: %v %v", v, err)
		}
		long[k[:MaxKeyShown]] = k
	}
	exact := "lock:" + strings.Repeat("e", MaxKeyShown-5)
	over := "lock:" + strings.Repeat("o", MaxKeyShown-4)
	for _, k := range []string{exact, over} {
		if v, err := c.Do("SET", k, "v"); err != nil || v.Kind == resp.Err {
			t.Fatalf("SET: %v %v", v, err)
		}
	}
	opt := options(t, s.Addr)
	opt.Limit = 10
	run := scanRun(t, opt)

	sh := run.Scan.Shards
	if len(sh) != 1 || !sh[0].Complete || sh[0].Findings != 18 || len(run.Findings) != 10 {
		t.Fatalf("shards %+v, %d findings listed; want one complete shard with 18 findings, 10 listed", sh, len(run.Findings))
	}
	if !strings.Contains(sh[0].Note, "8 findings over the listing limit (-limit 10) not listed") {
		t.Errorf("the shard does not say what was not listed: %q", sh[0].Note)
	}
	subjects := map[string]bool{}
	for _, f := range run.Findings {
		if len(f.Message) > 2<<10 || len(f.Subject) > MaxKeyShown+40 {
			t.Errorf("a finding of %d bytes, subject %d bytes: %.300q", len(f.Message), len(f.Subject), f.Message)
		}
		if subjects[f.Subject] {
			t.Errorf("two findings share the subject %.100q", f.Subject)
		}
		subjects[f.Subject] = true
		switch name := keyRE.FindStringSubmatch(f.Message); {
		case name == nil:
			t.Errorf("no key named in %.300q", f.Message)
		case name[1] == exact:
			if strings.Contains(f.Message, "cut") || f.Subject != "db0/"+exact {
				t.Errorf("a name of exactly %d bytes is not shown whole: %q (subject %q)", MaxKeyShown, f.Message, f.Subject)
			}
		default:
			whole := over
			if k, err := strconv.Unquote(`"` + name[1] + `"`); err == nil && long[k] != "" {
				whole = long[k]
			}
			sum := sha256.Sum256([]byte(whole))
			want := fmt.Sprintf("(its name cut to %d of %d bytes; SHA-256 %s)", MaxKeyShown, len(whole), hex.EncodeToString(sum[:8]))
			if !strings.Contains(f.Message, want) {
				t.Errorf("finding %.300q lacks %q", f.Message, want)
			}
		}
	}
	var js bytes.Buffer
	if err := render.Render(&js, run, "json"); err != nil {
		t.Fatal(err)
	}
	if js.Len() > 64<<10 {
		t.Errorf("the JSON report of 10 listed findings is %d bytes", js.Len())
	}
	opt.Limit = MaxLimit + 1
	if _, err := Run(servertest.Loopback(t), opt); err == nil || !strings.Contains(err.Error(), "-limit") {
		t.Errorf("-limit %d: %v, want refused", MaxLimit+1, err)
	}
}

// neverEnding is a fake standalone node whose SCAN cursor never returns
// to 0 and whose batches are empty (no real server does that); its
// keyspace claims 10 keys. It counts the SCAN calls.
func neverEnding(t *testing.T) (addr string, scans *atomic.Int64) {
	scans = new(atomic.Int64)
	addr = fakenode.Start(t, fakenode.WithHello(fakenode.Standalone(func(cmd []string) []byte {
		switch cmd[0] {
		case "SCAN":
			scans.Add(1)
			return []byte("*2\r\n$1\r\n7\r\n*0\r\n")
		case "INFO":
			if len(cmd) == 2 && strings.EqualFold(cmd[1], "keyspace") {
				return fakenode.Bulk("# Keyspace\r\ndb0:keys=10,expires=0,avg_ttl=0\r\n")
			}
		case "DBSIZE":
			return []byte(":10\r\n")
		case "CLIENT":
			return []byte("+OK\r\n")
		}
		return []byte("-ERR unknown command\r\n")
	})))
	return addr, scans
}

// TestScanNeverEndingCursor: a SCAN cursor that never returns to 0 ends
// the database's scan after the documented number of calls (CallsPerBatch
// × ⌈keys ÷ COUNT⌉ + CallsFloor, then DBSIZE asked again), incomplete
// (exit 4), long before the deadline; and each empty batch is paced as
// COUNT keys (it had the server examine up to ten times COUNT slots).
func TestScanNeverEndingCursor(t *testing.T) {
	addr, scans := neverEnding(t)
	opt := options(t, addr)
	opt.Count, opt.Rate, opt.Deadline = 1000, 50000, 30*time.Second
	var mu sync.Mutex
	var waits int
	var waited time.Duration
	opt.sleep = func(_ context.Context, d time.Duration) error { // recorded, not slept
		mu.Lock()
		defer mu.Unlock()
		waits++
		waited += d
		return nil
	}
	run := scanRun(t, opt)
	calls := maxCalls(10, 1000)
	sh := run.Scan.Shards
	if len(sh) != 1 || sh[0].Complete || len(sh[0].Databases) != 1 {
		t.Fatalf("shards %+v, want one incomplete shard", sh)
	}
	db := sh[0].Databases[0]
	if want := fmt.Sprintf("SCAN did not return to cursor 0 within %d calls", calls); db.Complete || !strings.Contains(db.Note, want) || strings.Contains(db.Note, "deadline") {
		t.Errorf("database %+v, want incomplete: %q", db, want)
	}
	if got := scans.Load(); got != calls {
		t.Errorf("the node answered %d SCAN calls, want exactly %d", got, calls)
	}
	if waits < int(calls)-1 {
		t.Errorf("%d waits for %d empty batches at -rate %d: empty batches are not paced", waits, calls, opt.Rate)
	}
	if code := report.ExitCode(run); code != report.ExitUnknown {
		t.Errorf("exit %d, want 4", code)
	}
}

// TestScanDeadReplicasNotRedialled: replicas the discovery could not
// reach (each announces a port that accepts and never answers) are not
// dialled again before the primary is read: each costs -timeout, one at a
// time. The primary is read and the shard says why not a replica.
func TestScanDeadReplicasNotRedialled(t *testing.T) {
	p := servertest.Start(t, servertest.Config{})
	p.Do(t, "SET", "lock:stuck", "t")
	var dead []string
	var accepted []func() int
	for range 2 {
		silent, count := fakenode.Silent(t)
		_, port, _ := net.SplitHostPort(silent)
		r := servertest.Start(t, servertest.Config{Args: []string{"--replica-announce-ip", "127.0.0.1", "--replica-announce-port", port}})
		r.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
		dead, accepted = append(dead, silent), append(accepted, count)
	}
	for i := 0; strings.Count(p.Do(t, "INFO", "replication"), "state=online") < 2; i++ {
		if i == 3000 {
			t.Fatalf("the replicas never came online: %s", p.Do(t, "INFO", "replication"))
		}
		time.Sleep(20 * time.Millisecond)
	}
	opt := options(t, p.Addr)
	opt.Probe.Timeout = time.Second
	run := scanRun(t, opt)
	for i, a := range dead {
		if n := accepted[i](); n != 1 {
			t.Errorf("dead replica %s was dialled %d times, want once (by the discovery)", a, n)
		}
	}
	sh := run.Scan.Shards
	if len(sh) != 1 || sh[0].ReadFrom != p.Addr || !sh[0].Complete {
		t.Fatalf("shards %+v, want the primary read to the end", sh)
	}
	for _, a := range dead {
		if !strings.Contains(sh[0].Note, "replica "+a+": unreachable at discovery") {
			t.Errorf("the shard's note does not say why not replica %s: %q", a, sh[0].Note)
		}
	}
	if got := keysOf(run, "LA211"); len(got) != 1 || got[0] != "lock:stuck" {
		t.Errorf("LA211 keys %q, want [lock:stuck]", got)
	}
}

// TestScanRedactsThePassword: a lock key whose name holds the scan user's
// password (a server echoes it back in SCAN) is reported with the
// password redacted, as the probe redacts what servers answer.
func TestScanRedactsThePassword(t *testing.T) {
	const pw = "s3cret-pw-4271"
	s := servertest.Start(t, servertest.Config{})
	s.AddUser(t, "scan", pw, ScanACL)
	s.Do(t, "SET", "lock:"+pw+":job", "t")
	opt := options(t, s.Addr)
	opt.Probe.User, opt.Probe.Password = "scan", pw
	run := scanRun(t, opt)
	if len(run.Findings) != 1 || !strings.Contains(run.Findings[0].Message, `"lock:[redacted]:job"`) {
		t.Errorf("findings %+v, want the key with the password redacted", run.Findings)
	}
	for _, format := range []string{"json", "text"} {
		var b bytes.Buffer
		render.Render(&b, run, format)
		if strings.Contains(b.String(), pw) {
			t.Errorf("the %s report holds the password:\n%s", format, b.String())
		}
	}
}

// TestScanAtTheNodeCap: a cluster of MaxNodes nodes whose members are all
// black-holed. The scan dials none of them again after the discovery,
// reports each of their shards not scanned, and no dial it started
// outlives it.
func TestScanAtTheNodeCap(t *testing.T) {
	addr := fakenode.Start(t, fakenode.WithHello(fakenode.Cluster(fakenode.Members(probe.MaxNodes-1))))
	ctx, holes := fakenode.BlackHoled(t)
	opt := options(t, addr)
	opt.Probe.Timeout, opt.Deadline = 30*time.Second, 4*time.Second
	run, err := Run(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Errors) != 0 || len(run.Scan.Shards) < probe.MaxNodes-2 {
		t.Fatalf("errors %+v, %d shards; want a shard per member", run.Errors, len(run.Scan.Shards))
	}
	if again := holes.Redialled(); len(again) > 0 {
		t.Errorf("%d members dialled again after the discovery, e.g. %s", len(again), again[0])
	}
	for _, sh := range run.Scan.Shards {
		if fakenode.Unanswered(sh.Primary) && (sh.Complete || !strings.Contains(sh.Note, "not scanned")) {
			t.Errorf("member shard %+v, want not scanned", sh)
			break
		}
	}
	if code := report.ExitCode(run); code != report.ExitUnknown {
		t.Errorf("exit %d, want 4", code)
	}
	holes.WantNoneWaiting(t)
}
