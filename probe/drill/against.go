package drill

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/report"
)

// AgainstOptions configure a drill on a staging Sentinel fleet: nothing is
// started and nothing is held back; the drill forces a failover with
// SENTINEL FAILOVER and writes scratch keys under a random hash tag.
type AgainstOptions struct {
	Sentinel string // HOST:PORT
	Master   string // the only primary the Sentinel may monitor
	Password string // AUTH for the Sentinel and the data nodes ("" none); never printed
	Dir      string // working folder for the resource (required)
	Settle   time.Duration
	Event    func(setting string, e report.DrillEvent)
	// Dial opens a TCP connection (default net.Dialer); tests pass a
	// loopback-only one.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// ErrMorePrimaries is the refusal of a Sentinel that monitors more than
// the named primary: a forced failover must not be one command away from
// another fleet.
var ErrMorePrimaries = errors.New("the Sentinel monitors more than the named primary")

// scratchTTL bounds every scratch key the staging drill writes;
// AgainstLease is the scratch lock's PX there (a coordinated failover
// usually keeps the lock, and B waits for it to end).
const (
	scratchTTL   = 10 * time.Minute
	AgainstLease = 10 * time.Second
)

// Against plays the race once on a staging fleet. The failover is
// coordinated by Sentinel, so A's lock has usually reached the replica and
// survives it; the record says what happened, and the fence still rejects
// A's write after B.
func Against(ctx context.Context, opt AgainstOptions) (*report.Drill, error) {
	if opt.Dir == "" || opt.Sentinel == "" || opt.Master == "" {
		return nil, errors.New("drill: Against needs Dir, Sentinel and Master")
	}
	if opt.Settle <= 0 {
		opt.Settle = 3 * time.Minute
	}
	dialer := opt.Dial
	if dialer == nil {
		var d net.Dialer
		dialer = d.DialContext
	}
	dial := func(addr string) (*resp.Conn, error) {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := dialer(dctx, "tcp", addr)
		if err != nil {
			return nil, err
		}
		conn := resp.NewConn(c, 10*time.Second)
		if opt.Password != "" {
			v, err := conn.Do("AUTH", opt.Password)
			if err == nil && v.Kind == resp.Err {
				err = errors.New("AUTH refused") // the reply is not quoted: it may echo input
			}
			if err != nil {
				conn.Close()
				return nil, err
			}
		}
		return conn, nil
	}
	t := newTimeline(dial, nil)
	if opt.Event != nil {
		t.progress = func(e report.DrillEvent) { opt.Event(report.SettingAgainst, e) }
	}
	defer t.close()

	// Refuse a Sentinel that monitors anything but the named primary.
	v, err := t.send(report.ActorDrill, opt.Sentinel, "SENTINEL", "MASTERS")
	if err != nil {
		return nil, fmt.Errorf("SENTINEL MASTERS on %s: %v", opt.Sentinel, err)
	}
	if v.Kind == resp.Err {
		return nil, fmt.Errorf("SENTINEL MASTERS on %s: %s", opt.Sentinel, v.Str)
	}
	var names []string
	for _, e := range v.Elems {
		m, _ := e.Fields()
		names = append(names, m["name"])
	}
	sort.Strings(names)
	if len(names) != 1 || names[0] != opt.Master {
		return nil, fmt.Errorf("%w: %s monitors %d (%s), -master is %s", ErrMorePrimaries, opt.Sentinel, len(names), strings.Join(names, ", "), opt.Master)
	}

	dir, err := os.MkdirTemp(opt.Dir, "against-")
	if err != nil {
		return nil, err
	}
	b := make([]byte, 6)
	rand.Read(b)
	tag := "drill-" + hex.EncodeToString(b)
	r := &race{ctx: ctx, opt: Options{Settle: opt.Settle}, setting: report.SettingAgainst, t: t, dir: dir,
		lock: "lock:{" + tag + "}", fence: "fence:{" + tag + "}", sentinel: opt.Sentinel, master: opt.Master, lease: AgainstLease}
	d := &report.Drill{Fleet: opt.Sentinel, LeaseMS: AgainstLease.Milliseconds()}
	err = r.against()
	d.Variants = []report.DrillVariant{{Setting: report.SettingAgainst, Events: t.events, Outcome: r.out}}
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		d.Variants[0].Error = err.Error()
	}
	return d, nil
}

// against is the race on a staging fleet.
func (r *race) against() error {
	t := r.t
	r.out = report.DrillOutcome{AWaitReplicas: -1, AWrite: report.WriteNone, BWrite: report.WriteNone}
	res, err := openResource(r.dir, job, History)
	if err != nil {
		return fmt.Errorf("the resource: %v", err)
	}
	defer res.close()
	primary, err := r.askSentinel(report.ActorA)
	if err != nil {
		return err
	}
	// Whatever happens, the scratch keys go at the end, from whichever
	// node is primary then (they also expire on their own).
	defer func() {
		if p, err := r.askSentinel(report.ActorDrill); err == nil {
			t.forget(report.ActorDrill, p)
			t.do(report.ActorDrill, p, "UNLINK", r.lock, r.fence)
		}
	}()
	if _, err := t.do(report.ActorDrill, primary, "SET", r.fence, strconv.Itoa(History), "PX", strconv.FormatInt(scratchTTL.Milliseconds(), 10)); err != nil {
		return err
	}
	tokA := token()
	aStart := time.Now()
	acq, fence, refused, err := r.acquire(report.ActorA, primary, tokA)
	if err != nil {
		return err
	}
	r.out.AAcquired, r.out.AFence, r.out.ARefused = acq, fence, refused
	if !acq {
		return fmt.Errorf("client A could not take the scratch lock on %s", primary)
	}
	aLeaseEnd := aStart.Add(r.leaseOr())
	v, err := t.do(report.ActorA, primary, "WAIT", "1", "100")
	if err != nil {
		return err
	}
	r.out.AWaitReplicas = v.Int
	reps, err := t.send(report.ActorDrill, r.sentinel, "SENTINEL", "REPLICAS", r.master)
	if err != nil {
		return err
	}
	for _, e := range reps.Elems {
		m, _ := e.Fields()
		if m["ip"] == "" || strings.Contains(m["flags"], "down") {
			continue
		}
		v, err := t.do(report.ActorDrill, net.JoinHostPort(m["ip"], m["port"]), "PTTL", r.lock)
		if err == nil && v.Kind == resp.Int && v.Int > 0 {
			r.out.LockOnReplica = true
		}
	}
	t.step(report.ActorA, primary, report.StepPause, "")

	if _, err := t.do(report.ActorDrill, r.sentinel, "SENTINEL", "FAILOVER", r.master); err != nil {
		return err
	}
	var now string
	if err := localfleet.Poll(r.ctx, r.opt.Settle, "Sentinel's forced failover", func() string {
		v, err := t.send(report.ActorDrill, r.sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", r.master)
		if err != nil {
			return err.Error()
		}
		if now, err = addrReply(v); err != nil || now == primary {
			return "the primary is still " + primary
		}
		return ""
	}); err != nil {
		return err
	}
	t.step(report.ActorSentinel, now, report.StepPromoted, "")
	newPrimary, err := r.askSentinel(report.ActorB)
	if err != nil {
		return err
	}
	if err := r.waitFree(newPrimary, aLeaseEnd); err != nil {
		return err
	}
	acq, fenceB, _, err := r.acquire(report.ActorB, newPrimary, token())
	if err != nil {
		return err
	}
	bAt := time.Now()
	r.out.BAcquired, r.out.BFence = acq, fenceB
	if !acq {
		return fmt.Errorf("client B could not take the scratch lock on %s", newPrimary)
	}
	r.out.DoubleHolder = bAt.Before(aLeaseEnd)
	ok, err := res.write(t, report.ActorB, job, fenceB)
	if err != nil {
		return err
	}
	r.out.BWrite = writeResult(ok)
	t.step(report.ActorA, "", report.StepWake, strconv.FormatInt(time.Until(aLeaseEnd).Milliseconds(), 10))
	ok, err = res.write(t, report.ActorA, job, r.out.AFence)
	if err != nil {
		return err
	}
	r.out.AWrite = writeResult(ok)
	return nil
}
