package report

import "fmt"

// Drill is `lockaudit drill`'s record: the failover race played on real
// servers, once per setting, each with the timeline of every actor's
// commands and replies and what came of it. It carries values only; the
// renderers (report/render/drill_render.go) word them.
type Drill struct {
	Fleet    string         `json:"fleet"`    // DrillLocal, or the staging Sentinel's address (-against)
	Server   string         `json:"server"`   // "Valkey 9.1.2"
	LeaseMS  int64          `json:"lease_ms"` // the lock's PX
	Variants []DrillVariant `json:"variants"`
}

// DrillLocal is Drill.Fleet when the drill started its own servers.
const DrillLocal = "local"

// Drill settings: the narrowing tool each variant turns on.
const (
	SettingNone           = "none"                // the race as it is
	SettingWait           = "wait"                // A sends WAIT 1 after its acquire
	SettingMinReplicas    = "min-replicas"        // min-replicas-to-write 1; the link failed within min-replicas-max-lag
	SettingMinReplicasLag = "min-replicas-lagged" // min-replicas-to-write 1; the link down for longer than min-replicas-max-lag
	SettingAppendfsync    = "appendfsync-always"  // appendonly yes, appendfsync always on the primary
	SettingClockSkew      = "clock-skew"          // the replica's clock runs ahead; replication is not held
	SettingAgainst        = "against"             // a staging fleet: a forced failover, nothing held
)

var drillSettings = []string{SettingNone, SettingWait, SettingMinReplicas, SettingMinReplicasLag, SettingAppendfsync, SettingClockSkew, SettingAgainst}

// Drill actors: who sent a command or did a step.
const (
	ActorA        = "A"        // the first holder, paused after its acquire
	ActorB        = "B"        // the holder after the failover
	ActorDrill    = "drill"    // the drill itself: set-up, observations, stopping the primary
	ActorProxy    = "proxy"    // the loopback proxy on the replication link
	ActorSentinel = "sentinel" // what the Sentinels did, as observed
	ActorResource = "resource" // the fenced resource (SQLite), for what it stored
	ActorProbe    = "probe"    // lockaudit's read-only probe of the fleet
)

var drillActors = []string{ActorA, ActorB, ActorDrill, ActorProxy, ActorSentinel, ActorResource, ActorProbe}

// Drill steps that are not commands, by what the actor did.
const (
	StepHold      = "hold"      // the proxy holds the replication link (Detail: "data" or "link")
	StepStop      = "stop"      // the primary is killed
	StepDropped   = "dropped"   // the proxy dropped the held bytes (Detail: bytes)
	StepPromoted  = "promoted"  // Sentinel made Node the primary
	StepPause     = "pause"     // A stops working (a GC pause, a slow disk)
	StepWake      = "wake"      // A carries on (Detail: its lease left, ms, by A's clock)
	StepRestart   = "restart"   // the old primary restarted from its files on Node
	StepClock     = "clock"     // Node's clock is shifted (Detail: the offset)
	StepFinding   = "finding"   // the probe reported Detail (a rule ID) on Node
	StepTransport = "transport" // a command could not be sent (Detail: the error)
)

var drillSteps = []string{StepHold, StepStop, StepDropped, StepPromoted, StepPause, StepWake, StepRestart, StepClock, StepFinding, StepTransport}

// DrillVariant is one play of the race.
type DrillVariant struct {
	Setting string       `json:"setting"`
	Nodes   []DrillNode  `json:"nodes,omitempty"`
	Events  []DrillEvent `json:"events"`
	Outcome DrillOutcome `json:"outcome"`
	// Findings are what the probe reported on this fleet (the clock-skew
	// variant probes it before the failover).
	Findings []Finding `json:"findings,omitempty"`
	// Skipped says why the variant was not played (e.g. no clock shifter).
	Skipped string `json:"skipped,omitempty"`
	// Error says why the variant stopped before its end.
	Error string `json:"error,omitempty"`
}

// DrillNode is one process of a variant's fleet.
type DrillNode struct {
	Addr string `json:"addr"`
	Role string `json:"role"` // primary, replica, sentinel, proxy
	// ClockOffsetMS is how far this node's clock was shifted (0: the
	// machine's clock).
	ClockOffsetMS int64 `json:"clock_offset_ms,omitempty"`
}

// DrillEvent is one line of the timeline: a command an actor sent to Node
// and the reply, or a step (Step set) with its Detail value.
type DrillEvent struct {
	Time    string   `json:"time"`  // RFC 3339 with fractions
	AtMS    int64    `json:"at_ms"` // since the variant's first event
	Actor   string   `json:"actor"` // drillActors
	Node    string   `json:"node"`  // where it happened
	Command []string `json:"command,omitempty"`
	Reply   string   `json:"reply,omitempty"` // the reply as the server sent it, in text
	Step    string   `json:"step,omitempty"`
	Detail  string   `json:"detail,omitempty"`
}

// Write outcomes at the fenced resource.
const (
	WriteAccepted = "accepted"
	WriteRejected = "rejected"
	WriteNone     = "none" // not attempted (the actor held no lock)
)

var writeOutcomes = []string{WriteAccepted, WriteRejected, WriteNone}

// DrillOutcome is what the variant showed, as values.
type DrillOutcome struct {
	AAcquired bool  `json:"a_acquired"`
	AFence    int64 `json:"a_fence,omitempty"`
	// AWaitReplicas is WAIT 1's reply to A (-1: A sent no WAIT).
	AWaitReplicas int64 `json:"a_wait_replicas"`
	// ARefused is A's acquire refused by the primary (NOREPLICAS).
	ARefused  bool  `json:"a_refused,omitempty"`
	BAcquired bool  `json:"b_acquired"`
	BFence    int64 `json:"b_fence,omitempty"`
	// DoubleHolder: A and B were both granted the lock while A's lease ran
	// by A's clock.
	DoubleHolder bool   `json:"double_holder"`
	BWrite       string `json:"b_write"`
	AWrite       string `json:"a_write"`
	// LockOnReplica: the replica had A's lock when the primary stopped.
	LockOnReplica bool `json:"lock_on_replica"`
	// SurvivedRestart: the old primary, restarted from its files, still
	// held A's lock (appendfsync always; nil: not tried).
	SurvivedRestart *bool `json:"survived_restart,omitempty"`
	// EarlyMS: B was granted the lock this long before A's lease ended by
	// A's clock (clock skew; 0 when not early).
	EarlyMS int64 `json:"early_ms,omitempty"`
}

// Prevented reports whether this play kept the lock to one holder.
func (o DrillOutcome) Prevented() bool { return !o.DoubleHolder }

// StaleRejected reports whether the fence turned the stale holder's write
// away: A wrote, and the resource refused it.
func (o DrillOutcome) StaleRejected() bool { return o.AWrite == WriteRejected }

// Variant returns the played variant with setting s, or nil.
func (d *Drill) Variant(s string) *DrillVariant {
	if d == nil {
		return nil
	}
	for i := range d.Variants {
		if d.Variants[i].Setting == s {
			return &d.Variants[i]
		}
	}
	return nil
}

// validateDrill checks the drill's enumerations.
func validateDrill(d *Drill) error {
	for i, v := range d.Variants {
		if err := oneOf(fmt.Sprintf("drill.variants[%d].setting", i), v.Setting, drillSettings); err != nil {
			return err
		}
		for j, e := range v.Events {
			where := fmt.Sprintf("drill.variants[%d].events[%d]", i, j)
			if err := oneOf(where+".actor", e.Actor, drillActors); err != nil {
				return err
			}
			if e.Step != "" {
				if err := oneOf(where+".step", e.Step, drillSteps); err != nil {
					return err
				}
			}
			if (e.Step == "") == (len(e.Command) == 0) {
				return fmt.Errorf("%s: an event is a command or a step, exactly one", where)
			}
		}
		if v.Skipped != "" {
			continue
		}
		for _, w := range []struct{ name, val string }{{"b_write", v.Outcome.BWrite}, {"a_write", v.Outcome.AWrite}} {
			if err := oneOf(fmt.Sprintf("drill.variants[%d].outcome.%s", i, w.name), w.val, writeOutcomes); err != nil {
				return err
			}
		}
		if v.Outcome.DoubleHolder && !(v.Outcome.AAcquired && v.Outcome.BAcquired) {
			return fmt.Errorf("drill.variants[%d].outcome: a double holder needs A and B both to have acquired", i)
		}
	}
	return nil
}
