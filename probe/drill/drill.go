// Package drill plays the failover race that every lock guide warns about,
// on real servers: client A takes a lock on the primary with its fence
// drawn in the same MULTI (SET NX PX + INCR), the write never reaches the
// replica (a loopback proxy holds the replication link: linkproxy), the
// primary is killed, Sentinel promotes the replica, client B takes the same
// lock and draws its fence, and A, paused all along, wakes and writes. A
// real resource (SQLite, `UPDATE … WHERE last_fence < ?`) checks the fence.
//
// Each setting that narrows the window (WAIT 1, min-replicas-to-write 1,
// appendfsync always) is played the same way, and so is clock skew (the
// replica's clock shifted ahead by a preload library, with lockaudit's
// probe reading the skewed fleet). The record is report.Drill: every
// actor's commands and replies with their times, and each play's outcome
// as values. Every server and the proxy are stopped when a play ends,
// however it ends.
package drill

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/drill/linkproxy"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Settings are the variants a local drill plays, in order.
var Settings = []string{
	report.SettingNone,
	report.SettingWait,
	report.SettingMinReplicas,
	report.SettingMinReplicasLag,
	report.SettingAppendfsync,
	report.SettingClockSkew,
}

// The race's numbers.
const (
	// Lease is the lock's PX: long enough that A's lease still runs when
	// B is granted the lock after the failover, even on a slow machine.
	Lease = 60 * time.Second
	// History is the fence the resource and the counter hold before A:
	// earlier holders' numbers, replicated.
	History = 41
	// SkewMS is how far the clock-skew variant runs the replica's clock
	// ahead: A's lock ends Lease-SkewMS after A's acquire by its clock.
	SkewMS = 50_000
	// maxLag is min-replicas-max-lag in the min-replicas variants.
	maxLag = 2
	job    = "drill"
)

// Keys of the race; both share the hash tag {drill}.
const (
	lockKey  = "lock:{" + job + "}"
	fenceKey = "fence:{" + job + "}"
)

// Options configure a local drill.
type Options struct {
	Line     string   // server line (default localfleet.Valkey91)
	Servers  string   // install folder (default localfleet.Dir())
	Settings []string // variants to play (default Settings)
	Dir      string   // working folder for servers and the resource (required)
	// Settle bounds each wait: a topology settling, the failover, an
	// expiry (default 3 minutes: Sentinel may sit in TILT for 30s on a
	// loaded machine).
	Settle time.Duration
	// Event, when set, is called with each timeline event as it happens.
	Event func(setting string, e report.DrillEvent)
	// Started, when set, is called with each server and proxy as it
	// starts (the CLI lists them; tests check they are gone after).
	Started func(addr string, pid int)
	// ClockShift is the preload library for the clock-skew variant; ""
	// builds it from source with the C compiler (cc) into Dir.
	ClockShift string
	Version    string // lockaudit's version, for the probe
}

// Run plays each setting's variant on a fleet of its own and returns the
// record. A variant that fails records its error and the drill goes on;
// an interrupted drill (ctx canceled) stops at once, with every process
// stopped, and returns ctx's cause.
func Run(ctx context.Context, opt Options) (*report.Drill, error) {
	if opt.Dir == "" {
		return nil, errors.New("drill: Options.Dir is required")
	}
	if opt.Line == "" {
		opt.Line = localfleet.Valkey91
	}
	if opt.Settle <= 0 {
		opt.Settle = 3 * time.Minute
	}
	if len(opt.Settings) == 0 {
		opt.Settings = Settings
	}
	var in localfleet.Install
	var err error
	if opt.Servers != "" {
		in, err = localfleet.LookupIn(opt.Servers, opt.Line)
	} else {
		in, err = localfleet.Lookup(opt.Line)
	}
	if err != nil {
		return nil, err
	}
	d := &report.Drill{Fleet: report.DrillLocal, Server: strings.ToUpper(in.Flavor[:1]) + in.Flavor[1:] + " " + in.Version, LeaseMS: Lease.Milliseconds()}
	for _, s := range opt.Settings {
		if !validSetting(s) {
			return nil, fmt.Errorf("drill: unknown setting %q (want one of %s)", s, strings.Join(Settings, ", "))
		}
	}
	for _, s := range opt.Settings {
		v := play(ctx, opt, s)
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		d.Variants = append(d.Variants, v)
	}
	return d, nil
}

func validSetting(s string) bool {
	for _, x := range Settings {
		if x == s {
			return true
		}
	}
	return false
}

// play runs one variant on a fleet of its own.
func play(ctx context.Context, opt Options, setting string) report.DrillVariant {
	v := report.DrillVariant{Setting: setting}
	dir, err := os.MkdirTemp(opt.Dir, setting+"-")
	if err != nil {
		v.Error = err.Error()
		return v
	}
	spec := fleetSpec{
		line: opt.Line, servers: opt.Servers, settle: opt.Settle,
		newDir: func() (string, error) { return os.MkdirTemp(dir, "node-") },
	}
	if opt.Started != nil {
		spec.onStart = func(s *localfleet.Server) { opt.Started(s.Addr, s.Pid()) }
		spec.onProxyStart = func(p *linkproxy.Proxy) { opt.Started(p.Addr, os.Getpid()) }
	}
	var skewMS int64
	switch setting {
	case report.SettingAppendfsync:
		spec.primaryArgs = []string{"--appendonly", "yes", "--appendfsync", "always"}
	case report.SettingClockSkew:
		lib := opt.ClockShift
		if lib == "" {
			if lib, err = buildClockShift(ctx, opt.Dir); err != nil {
				v.Skipped = err.Error()
				return v
			}
		}
		skewMS = SkewMS
		spec.replicaEnv = []string{"LD_PRELOAD=" + lib, "LOCKAUDIT_CLOCK_OFFSET_MS=" + strconv.Itoa(SkewMS)}
	}
	f, err := startFleet(ctx, spec)
	if err != nil {
		v.Error = "starting the fleet: " + err.Error()
		return v
	}
	defer f.stop()
	v.Nodes = f.nodes(skewMS)
	t := newTimeline(func(addr string) (*resp.Conn, error) { return resp.Dial(addr, 10*time.Second) }, nil)
	if opt.Event != nil {
		t.progress = func(e report.DrillEvent) { opt.Event(setting, e) }
	}
	defer t.close()
	r := &race{ctx: ctx, opt: opt, setting: setting, f: f, t: t, dir: dir, skewMS: skewMS,
		lock: lockKey, fence: fenceKey, sentinel: f.sentinels[0].Addr, master: Master}
	err = r.run()
	v.Events, v.Outcome, v.Findings = t.events, r.out, r.findings
	if err != nil {
		v.Error = err.Error()
	}
	return v
}

// race is one play's state.
type race struct {
	ctx      context.Context
	opt      Options
	setting  string
	f        *fleet
	t        *timeline
	dir      string
	skewMS   int64
	out      report.DrillOutcome
	findings []report.Finding
	// The race's keys and where its clients find the primary.
	lock, fence, sentinel, master string
	lease                         time.Duration // 0: Lease
}

func (r *race) leaseOr() time.Duration {
	if r.lease > 0 {
		return r.lease
	}
	return Lease
}

func (r *race) run() error {
	t, f := r.t, r.f
	r.out = report.DrillOutcome{AWaitReplicas: -1, AWrite: report.WriteNone, BWrite: report.WriteNone}
	res, err := openResource(r.dir, job, History)
	if err != nil {
		return fmt.Errorf("the resource: %v", err)
	}
	defer res.close()
	if r.skewMS != 0 {
		t.step(report.ActorDrill, f.replica.Addr, report.StepClock, "+"+(time.Duration(r.skewMS)*time.Millisecond).String())
	}

	// Earlier holders' history: the fence counter is at History and the
	// replica has it.
	if _, err := t.do(report.ActorDrill, f.primary.Addr, "SET", r.fence, strconv.Itoa(History)); err != nil {
		return err
	}
	if err := r.waitReplicated(); err != nil {
		return err
	}

	// A finds the primary through Sentinel.
	primary, err := r.askSentinel(report.ActorA)
	if err != nil {
		return err
	}
	switch r.setting {
	case report.SettingNone, report.SettingWait, report.SettingAppendfsync:
		if err := f.proxy.SetMode(linkproxy.HoldData); err != nil {
			return err
		}
		t.step(report.ActorProxy, f.proxy.Addr, report.StepHold, "data")
	case report.SettingMinReplicas, report.SettingMinReplicasLag:
		for _, kv := range [][2]string{{"min-replicas-to-write", "1"}, {"min-replicas-max-lag", strconv.Itoa(maxLag)}} {
			if _, err := t.do(report.ActorDrill, f.primary.Addr, "CONFIG", "SET", kv[0], kv[1]); err != nil {
				return err
			}
		}
		if err := f.proxy.SetMode(linkproxy.HoldLink); err != nil {
			return err
		}
		t.step(report.ActorProxy, f.proxy.Addr, report.StepHold, "link")
		if r.setting == report.SettingMinReplicasLag {
			if err := r.waitNoGoodReplica(); err != nil {
				return err
			}
		}
	}

	// A acquires: the lock and its fence in one MULTI.
	tokA := token()
	aStart := time.Now()
	acq, fence, refused, err := r.acquire(report.ActorA, primary, tokA)
	if err != nil {
		return err
	}
	r.out.AAcquired, r.out.AFence, r.out.ARefused = acq, fence, refused
	if r.setting == report.SettingWait {
		v, err := t.do(report.ActorA, primary, "WAIT", "1", "100")
		if err != nil {
			return err
		}
		r.out.AWaitReplicas = v.Int
	}
	aLeaseEnd := aStart.Add(Lease)

	// Where is A's lock now?
	if _, err := t.do(report.ActorDrill, f.primary.Addr, "PTTL", r.lock); err != nil {
		return err
	}
	v, err := t.do(report.ActorDrill, f.replica.Addr, "PTTL", r.lock)
	if err != nil {
		return err
	}
	r.out.LockOnReplica = v.Kind == resp.Int && v.Int > 0
	if r.setting == report.SettingClockSkew {
		if err := r.probeFleet(); err != nil {
			return err
		}
	}
	if acq {
		t.step(report.ActorA, primary, report.StepPause, "")
	}

	// The primary dies; Sentinel promotes the replica.
	f.primary.Kill()
	t.step(report.ActorDrill, f.primary.Addr, report.StepStop, "SIGKILL")
	if err := r.waitPromoted(); err != nil {
		return err
	}

	// B finds the new primary and takes the lock.
	newPrimary, err := r.askSentinel(report.ActorB)
	if err != nil {
		return err
	}
	if err := r.waitFree(newPrimary, aLeaseEnd); err != nil {
		return err
	}
	tokB := token()
	acq, fenceB, _, err := r.acquire(report.ActorB, newPrimary, tokB)
	if err != nil {
		return err
	}
	bAt := time.Now()
	r.out.BAcquired, r.out.BFence = acq, fenceB
	if !acq {
		return fmt.Errorf("client B could not take the lock on the new primary %s", newPrimary)
	}
	if r.out.AAcquired && bAt.Before(aLeaseEnd) {
		r.out.DoubleHolder = true
		if r.skewMS != 0 {
			r.out.EarlyMS = aLeaseEnd.Sub(bAt).Milliseconds()
		}
	}
	ok, err := res.write(t, report.ActorB, job, fenceB)
	if err != nil {
		return err
	}
	r.out.BWrite = writeResult(ok)

	// A wakes, believes its lease still runs, and writes.
	if r.out.AAcquired {
		t.step(report.ActorA, "", report.StepWake, strconv.FormatInt(time.Until(aLeaseEnd).Milliseconds(), 10))
		ok, err := res.write(t, report.ActorA, job, r.out.AFence)
		if err != nil {
			return err
		}
		r.out.AWrite = writeResult(ok)
	}
	if r.setting == report.SettingAppendfsync {
		return r.restartOld(tokA)
	}
	return nil
}

func writeResult(ok bool) string {
	if ok {
		return report.WriteAccepted
	}
	return report.WriteRejected
}

// acquire sends MULTI, SET NX PX, INCR, EXEC as actor; acquired is the
// SET's OK, fence the INCR's number (meaningful only when acquired),
// refused an EXEC the primary aborted (NOREPLICAS).
func (r *race) acquire(actor, addr, tok string) (acquired bool, fence int64, refused bool, err error) {
	for _, args := range [][]string{
		{"MULTI"},
		{"SET", r.lock, tok, "NX", "PX", strconv.FormatInt(r.leaseOr().Milliseconds(), 10)},
		{"INCR", r.fence},
	} {
		if _, err := r.t.do(actor, addr, args...); err != nil {
			return false, 0, false, err
		}
	}
	v, err := r.t.do(actor, addr, "EXEC")
	if err != nil {
		return false, 0, false, err
	}
	if v.Kind == resp.Err {
		return false, 0, true, nil
	}
	if v.Kind != resp.Array || len(v.Elems) != 2 {
		return false, 0, false, fmt.Errorf("EXEC answered %s", replyText(v))
	}
	return v.Elems[0].Kind == resp.Str && v.Elems[0].Str == "OK", v.Elems[1].Int, false, nil
}

// askSentinel records actor asking the first Sentinel for the primary.
func (r *race) askSentinel(actor string) (string, error) {
	v, err := r.t.do(actor, r.sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", r.master)
	if err != nil {
		return "", err
	}
	return addrReply(v)
}

// waitReplicated waits until WAIT 1 says the replica has every write so far.
func (r *race) waitReplicated() error {
	var last string
	err := localfleet.Poll(r.ctx, r.opt.Settle, "the replica acknowledging the history", func() string {
		v, err := r.t.send(report.ActorDrill, r.f.primary.Addr, "WAIT", "1", "1000")
		if err != nil {
			return err.Error()
		}
		last = replyText(v)
		if v.Kind == resp.Int && v.Int >= 1 {
			return ""
		}
		return "WAIT 1 answers " + last
	})
	if err == nil {
		r.t.record(report.ActorDrill, r.f.primary.Addr, last, "WAIT", "1", "1000")
	}
	return err
}

// waitNoGoodReplica waits until the primary no longer counts the replica
// (its last acknowledgement is older than min-replicas-max-lag).
func (r *race) waitNoGoodReplica() error {
	var last string
	err := localfleet.Poll(r.ctx, r.opt.Settle, "the primary dropping its replica from the good ones", func() string {
		info, err := r.f.primary.Info("replication")
		if err != nil {
			return err.Error()
		}
		last = info["min_slaves_good_slaves"]
		if last == "0" {
			return ""
		}
		return "min_slaves_good_slaves:" + last
	})
	if err == nil {
		r.t.record(report.ActorDrill, r.f.primary.Addr, "min_slaves_good_slaves:"+last, "INFO", "replication")
	}
	return err
}

// waitPromoted waits until every Sentinel names the replica as the primary
// and the replica says it is one; it records the proxy dropping what it
// held when the primary died.
func (r *race) waitPromoted() error {
	f := r.f
	err := localfleet.Poll(r.ctx, r.opt.Settle, "Sentinel promoting the replica", func() string {
		for _, s := range f.sentinels {
			v, err := s.Raw("SENTINEL", "GET-MASTER-ADDR-BY-NAME", Master)
			if err != nil {
				return err.Error()
			}
			if a, _ := addrReply(v); a != f.replica.Addr {
				return "Sentinel " + s.Addr + " names " + a
			}
		}
		role, err := f.replica.Raw("ROLE")
		if err != nil {
			return err.Error()
		}
		if len(role.Elems) == 0 || role.Elems[0].Str != "master" {
			return "the replica's ROLE is " + replyText(role)
		}
		return ""
	})
	if err != nil {
		return err
	}
	if _, _, dropped := f.proxy.Held(); dropped > 0 {
		r.t.step(report.ActorProxy, f.proxy.Addr, report.StepDropped, strconv.FormatInt(dropped, 10))
	}
	r.t.step(report.ActorSentinel, f.replica.Addr, report.StepPromoted, "")
	return nil
}

// waitFree is B waiting for the lock to be free on the new primary (it is
// at once when the failover lost A's lock; with clock skew it ends by the
// new primary's clock). B polls PTTL; the first and last answers are
// recorded.
func (r *race) waitFree(addr string, aLeaseEnd time.Time) error {
	v, err := r.t.do(report.ActorB, addr, "PTTL", r.lock)
	if err != nil || v.Int == -2 {
		return err
	}
	var last string
	err = localfleet.Poll(r.ctx, time.Until(aLeaseEnd)+r.opt.Settle, "the lock expiring on the new primary", func() string {
		v, err := r.t.send(report.ActorB, addr, "PTTL", r.lock)
		if err != nil {
			return err.Error()
		}
		last = replyText(v)
		if v.Kind == resp.Int && v.Int == -2 {
			return ""
		}
		return "PTTL " + last
	})
	if err == nil {
		r.t.record(report.ActorB, addr, last, "PTTL", r.lock)
	}
	return err
}

// probeFleet runs lockaudit's read-only probe on the fleet through its
// Sentinels and records what it found (LA207 on the skewed replica).
func (r *race) probeFleet() error {
	ctx := netguard.With(r.ctx, netguard.LoopbackOnly(nil))
	var addrs []string
	for _, s := range r.f.sentinels {
		addrs = append(addrs, s.Addr)
	}
	run, err := probe.Run(ctx, probe.Options{Sentinels: addrs, Master: Master, Version: r.opt.Version})
	if err != nil {
		return fmt.Errorf("probing the fleet: %v", err)
	}
	for _, f := range run.Findings {
		if f.Rule == rules.LA207 {
			r.findings = append(r.findings, f)
			r.t.step(report.ActorProbe, f.Node, report.StepFinding, string(f.Rule))
		}
	}
	return nil
}

// restartOld starts a server on the old primary's files (appendonly,
// every write fsynced) on a new port, outside Sentinel's view, and reads
// A's lock there: it survived a restart, not the failover.
func (r *race) restartOld(tokA string) error {
	old := r.f.primary
	c := old.Config
	c.Port = 0
	s, err := localfleet.Start(r.ctx, keepDir(old.Dir), c, nil, "")
	if err != nil {
		return fmt.Errorf("restarting the old primary from its files: %v", err)
	}
	r.f.restarted = s
	if r.opt.Started != nil {
		r.opt.Started(s.Addr, s.Pid())
	}
	r.t.step(report.ActorDrill, s.Addr, report.StepRestart, old.Addr)
	var v resp.Value
	if err := localfleet.Poll(r.ctx, r.opt.Settle, "the restarted primary loading its files", func() string {
		var err error
		if v, err = r.t.send(report.ActorDrill, s.Addr, "GET", r.lock); err != nil {
			return err.Error()
		}
		if v.Kind == resp.Err && strings.HasPrefix(v.Str, "LOADING") {
			return v.Str
		}
		return ""
	}); err != nil {
		return err
	}
	r.t.record(report.ActorDrill, s.Addr, replyText(v), "GET", r.lock)
	kept := v.Kind == resp.Str && v.Str == tokA
	r.out.SurvivedRestart = &kept
	return nil
}

// token is a fresh lock token: 20 random bytes.
func token() string {
	b := make([]byte, 20)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// buildClockShift compiles the clock-shift preload library (its C source
// is embedded) with the C compiler into dir.
func buildClockShift(ctx context.Context, dir string) (string, error) {
	return compileClockShift(ctx, filepath.Join(dir, "clockshift"))
}
