package drill_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/drill"
	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// playOne plays one setting on real servers (a Sentinel-managed Valkey 9.1
// primary and replica, three Sentinels) and returns its variant; the
// timeline goes to the test log.
func playOne(t *testing.T, setting string) report.DrillVariant {
	t.Helper()
	servertest.Require(t, servertest.Valkey91)
	d, err := drill.Run(context.Background(), drill.Options{Settings: []string{setting}, Dir: t.TempDir(),
		Event: func(_ string, e report.DrillEvent) { t.Log(render.DrillEventLine(e)) }})
	if err != nil {
		t.Fatal(err)
	}
	v := d.Variants[0]
	if v.Error != "" || v.Skipped != "" {
		t.Fatalf("%s: error %q, skipped %q", setting, v.Error, v.Skipped)
	}
	if err := (&report.Run{Command: "drill", Drill: d}).Validate(); err != nil {
		t.Errorf("the record does not validate: %v", err)
	}
	return v
}

// row checks one table row: double holder prevented? stale write rejected?
func row(t *testing.T, v report.DrillVariant, prevented bool, aWrite string) {
	t.Helper()
	o := v.Outcome
	if o.Prevented() != prevented {
		t.Errorf("%s: double holder prevented = %v, want %v (%+v)", v.Setting, o.Prevented(), prevented, o)
	}
	if o.AWrite != aWrite {
		t.Errorf("%s: A's write %s, want %s", v.Setting, o.AWrite, aWrite)
	}
	if !o.BAcquired || o.BWrite != report.WriteAccepted {
		t.Errorf("%s: B acquired %v, B's write %s: B must hold the lock and write after the failover", v.Setting, o.BAcquired, o.BWrite)
	}
}

// The race as it is: the replica never had A's lock, B is granted it
// too, the failover issues fence 42 twice, and only the strict fence
// check rejects A.
func TestRowNone(t *testing.T) {
	v := playOne(t, report.SettingNone)
	row(t, v, false, report.WriteRejected)
	o := v.Outcome
	if o.LockOnReplica {
		t.Error("the replica had A's lock: the proxy did not hold the replication link")
	}
	if o.AFence != drill.History+1 || o.BFence != o.AFence {
		t.Errorf("fences A %d, B %d: want both %d (the failover lost A's INCR)", o.AFence, o.BFence, drill.History+1)
	}
	if got := render.DrillClosing(v); got != "double holder: yes; stale write rejected by the fence: yes" {
		t.Errorf("closing line %q", got)
	}
	var dropped, promoted bool
	for _, e := range v.Events {
		dropped = dropped || e.Step == report.StepDropped
		promoted = promoted || e.Step == report.StepPromoted
	}
	if !dropped || !promoted {
		t.Errorf("timeline: dropped %v, promoted %v; want both", dropped, promoted)
	}
}

// WAIT 1 tells A (0 replicas) but does not undo the SET.
func TestRowWait(t *testing.T) {
	v := playOne(t, report.SettingWait)
	row(t, v, false, report.WriteRejected)
	if v.Outcome.AWaitReplicas != 0 {
		t.Errorf("WAIT 1 answered A %d, want 0", v.Outcome.AWaitReplicas)
	}
}

// min-replicas-to-write 1 with the link lost just before the acquire: the
// primary still counts the replica, accepts A, and loses it.
func TestRowMinReplicasWithinLag(t *testing.T) {
	v := playOne(t, report.SettingMinReplicas)
	row(t, v, false, report.WriteRejected)
	if v.Outcome.ARefused {
		t.Error("A's acquire was refused within min-replicas-max-lag")
	}
}

// min-replicas-to-write 1 with the link down longer than the lag: A is
// refused, so there is one holder and no stale write.
func TestRowMinReplicasLagged(t *testing.T) {
	v := playOne(t, report.SettingMinReplicasLag)
	row(t, v, true, report.WriteNone)
	if !v.Outcome.ARefused || v.Outcome.AAcquired {
		t.Errorf("A refused %v, acquired %v: want refused (NOREPLICAS)", v.Outcome.ARefused, v.Outcome.AAcquired)
	}
	refused := false
	for _, e := range v.Events {
		refused = refused || (e.Actor == report.ActorA && strings.Contains(e.Reply, "NOREPLICAS"))
	}
	if !refused {
		t.Error("no NOREPLICAS reply to A in the timeline")
	}
}

// appendfsync always keeps A's lock on the old primary's disk (a restart
// keeps it) but not across the failover.
func TestRowAppendfsyncAlways(t *testing.T) {
	v := playOne(t, report.SettingAppendfsync)
	row(t, v, false, report.WriteRejected)
	if s := v.Outcome.SurvivedRestart; s == nil || !*s {
		t.Errorf("survived restart: %v, want true", s)
	}
}

// The replica's clock runs ahead: A's lock replicates (as PXAT) but ends
// early on the promoted replica, B is granted it within A's lease, the
// fence rejects A — and the probe reports LA207 on that replica.
func TestRowClockSkew(t *testing.T) {
	v := playOne(t, report.SettingClockSkew)
	row(t, v, false, report.WriteRejected)
	o := v.Outcome
	if !o.LockOnReplica {
		t.Error("the replica did not have A's lock: clock skew needs it replicated")
	}
	if o.EarlyMS <= 0 {
		t.Errorf("B was granted the lock %dms before A's lease ended, want > 0", o.EarlyMS)
	}
	if o.BFence <= o.AFence {
		t.Errorf("fences A %d, B %d: B's must be higher (A's INCR replicated)", o.AFence, o.BFence)
	}
	var replica string
	for _, n := range v.Nodes {
		if n.Role == report.RoleReplica {
			replica = n.Addr
			if n.ClockOffsetMS != drill.SkewMS {
				t.Errorf("replica clock offset %d, want %d", n.ClockOffsetMS, drill.SkewMS)
			}
		}
	}
	found := false
	for _, f := range v.Findings {
		if f.Rule == "LA207" && f.Node == replica && strings.Contains(f.Message, "ahead of primary") {
			found = true
		}
	}
	if !found {
		t.Errorf("the probe did not report LA207 on the skewed replica %s: %+v", replica, v.Findings)
	}
}

// An unknown setting is refused before anything starts.
func TestUnknownSetting(t *testing.T) {
	servertest.Require(t, servertest.Valkey91)
	if _, err := drill.Run(context.Background(), drill.Options{Settings: []string{"bogus"}, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("err = %v", err)
	}
}

// againstFleet starts a staging-like fleet: a primary, a replica and three
// Sentinels monitoring it as "staging" (failover only when forced).
func againstFleet(t *testing.T) (sentinel string, s0 *servertest.Server) {
	servertest.Require(t, servertest.Valkey91)
	nodes := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	ss := servertest.StartSentinels(t, nodes[0], "staging", 3, 1, servertest.Config{})
	return ss[0].Addr, ss[0]
}

// -against on a Sentinel that monitors the named primary only: a forced
// failover, the scratch lock replicated and kept, B granted it once it
// ended, A's late write rejected by the fence; the scratch keys are gone.
func TestAgainstStaging(t *testing.T) {
	addr, _ := againstFleet(t)
	d, err := drill.Against(servertest.Loopback(t), drill.AgainstOptions{Sentinel: addr, Master: "staging", Dir: t.TempDir(),
		Dial:  netguard.LoopbackOnly(nil),
		Event: func(_ string, e report.DrillEvent) { t.Log(render.DrillEventLine(e)) }})
	if err != nil {
		t.Fatal(err)
	}
	v := d.Variants[0]
	if v.Error != "" {
		t.Fatal(v.Error)
	}
	o := v.Outcome
	if o.AWaitReplicas != 1 || !o.LockOnReplica {
		t.Errorf("WAIT %d, lock on replica %v: the scratch lock should have replicated", o.AWaitReplicas, o.LockOnReplica)
	}
	if o.DoubleHolder || o.AWrite != report.WriteRejected || o.BWrite != report.WriteAccepted {
		t.Errorf("outcome %+v: want one holder at a time, B accepted, A rejected", o)
	}
	last := v.Events[len(v.Events)-1]
	if len(last.Command) == 0 || last.Command[0] != "UNLINK" || last.Reply != "2" {
		t.Errorf("the scratch keys were not removed at the end: %+v", last)
	}
}

// -against refuses a Sentinel that monitors another primary too.
func TestAgainstRefusesMorePrimaries(t *testing.T) {
	addr, s0 := againstFleet(t)
	other := servertest.Start(t, servertest.Config{})
	s0.Do(t, "SENTINEL", "MONITOR", "other", "127.0.0.1", strconv.Itoa(other.Port), "2")
	_, err := drill.Against(servertest.Loopback(t), drill.AgainstOptions{Sentinel: addr, Master: "staging", Dir: t.TempDir(), Dial: netguard.LoopbackOnly(nil)})
	if !errors.Is(err, drill.ErrMorePrimaries) || !strings.Contains(err.Error(), "other, staging") {
		t.Errorf("err = %v, want ErrMorePrimaries naming both", err)
	}
	if n := other.Do(t, "DBSIZE"); n != "0" {
		t.Errorf("the other primary holds %s keys: nothing may be written when refusing", n)
	}
}
