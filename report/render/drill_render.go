package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report"
)

// The failover drill's words: every renderer prints a Drill through
// drillView, so the table and the timelines read the same in text,
// Markdown and HTML, and the closing line is the one `lockaudit drill`
// prints.

// drillView is what the reports show of a Drill.
type drillView struct {
	Fleet    string
	Server   string
	Lease    string
	Rows     []drillRow
	Variants []drillVariantView
	// Closing is the baseline's one-line outcome ("double holder: yes;
	// stale write rejected by the fence: yes"), "" without a baseline.
	Closing string
}

// drillRow is one line of the closing table.
type drillRow struct {
	ID        string // the variant's anchor
	Setting   string // how the setting reads
	ASaw      string
	Prevented string // yes, no
	Rejected  string // yes, no, or a dash when A never held the lock
	Meaning   string // what the row shows
	Class     string // safe, unsafe, unknown: how the row is colored
}

type drillVariantView struct {
	ID      string
	Title   string
	Nodes   []report.DrillNode
	Events  []drillEventView
	Note    string // skipped or failed, and why
	Meaning string
}

type drillEventView struct {
	At      string // +1.234s
	Time    string // 08:21:37.123
	Actor   string
	Node    string
	What    string // the command, or the step in words
	Reply   string
	Marked  bool // a step of the race (acquire, stop, promotion, write)
	Command bool // What is a command (shown as code), not a step in words
}

// DrillSettingTitle words a drill setting.
func DrillSettingTitle(s string) string {
	switch s {
	case report.SettingNone:
		return "no narrowing setting"
	case report.SettingWait:
		return "WAIT 1 after the acquire"
	case report.SettingMinReplicas:
		return "min-replicas-to-write 1 (the link lost within min-replicas-max-lag)"
	case report.SettingMinReplicasLag:
		return "min-replicas-to-write 1 (the link down longer than min-replicas-max-lag)"
	case report.SettingAppendfsync:
		return "appendonly yes, appendfsync always"
	case report.SettingClockSkew:
		return "the replica's clock ahead (no replication held back)"
	case report.SettingAgainst:
		return "the staging fleet, forced failover"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// DrillClosing is the drill's one-line answer for a variant:
// "double holder: yes; stale write rejected by the fence: yes".
func DrillClosing(v report.DrillVariant) string {
	rejected := yesNo(v.Outcome.StaleRejected())
	if v.Outcome.AWrite == report.WriteNone {
		rejected = "no write (A held no lock)"
	}
	return "double holder: " + yesNo(v.Outcome.DoubleHolder) + "; stale write rejected by the fence: " + rejected
}

func newDrillView(d *report.Drill) *drillView {
	if d == nil {
		return nil
	}
	dv := &drillView{Fleet: d.Fleet, Server: d.Server, Lease: (time.Duration(d.LeaseMS) * time.Millisecond).String()}
	if d.Fleet == report.DrillLocal {
		dv.Fleet = "started on loopback by lockaudit drill"
	}
	for _, v := range d.Variants {
		id := "drill-" + v.Setting
		row := drillRow{ID: id, Setting: DrillSettingTitle(v.Setting)}
		vv := drillVariantView{ID: id, Title: DrillSettingTitle(v.Setting), Nodes: v.Nodes}
		switch {
		case v.Skipped != "":
			row.ASaw, row.Prevented, row.Rejected, row.Class = "not played", "—", "—", "unknown"
			vv.Note = "Not played: " + v.Skipped
		case v.Error != "":
			row.ASaw, row.Prevented, row.Rejected, row.Class = "stopped early", "—", "—", "unknown"
			vv.Note = "Stopped before its end: " + v.Error
		default:
			o := v.Outcome
			row.ASaw = drillASaw(v)
			row.Prevented = yesNo(o.Prevented())
			row.Rejected = yesNo(o.StaleRejected())
			if o.AWrite == report.WriteNone {
				row.Rejected = "— (A held no lock)"
			}
			row.Class = "unsafe"
			if o.Prevented() {
				row.Class = "safe"
			}
			row.Meaning = drillMeaning(v)
			vv.Meaning = row.Meaning
		}
		if v.Setting == report.SettingNone && v.Skipped == "" && v.Error == "" {
			dv.Closing = DrillClosing(v)
		}
		for _, e := range v.Events {
			vv.Events = append(vv.Events, drillEvent(e))
		}
		dv.Rows = append(dv.Rows, row)
		dv.Variants = append(dv.Variants, vv)
	}
	return dv
}

// drillASaw is what A's client was told.
func drillASaw(v report.DrillVariant) string {
	o := v.Outcome
	switch {
	case o.ARefused:
		return "acquire refused (NOREPLICAS)"
	case !o.AAcquired:
		return "lock not granted"
	case o.AWaitReplicas >= 0:
		return fmt.Sprintf("OK, fence %d; WAIT 1 → %d", o.AFence, o.AWaitReplicas)
	}
	return fmt.Sprintf("OK, fence %d", o.AFence)
}

// drillMeaning says what the variant shows, from its outcome.
func drillMeaning(v report.DrillVariant) string {
	o := v.Outcome
	var s []string
	switch v.Setting {
	case report.SettingNone:
		s = append(s, "The replica never got A's lock; after the failover B was granted the same lock, and the fence number was issued twice.")
	case report.SettingWait:
		if o.AWaitReplicas == 0 {
			s = append(s, "WAIT told A that no replica had its lock, so A could know and back off — but WAIT does not undo the SET: B was still granted the lock after the failover.")
		}
	case report.SettingMinReplicas:
		s = append(s, "The primary still counted the replica as good (its last acknowledgement was newer than min-replicas-max-lag), so A's acquire was accepted and lost with the primary.")
	case report.SettingMinReplicasLag:
		if o.ARefused {
			s = append(s, "The replica had been silent longer than min-replicas-max-lag, so the primary refused A's acquire: no double holder in this play, but only because the link had been down for a while.")
		}
	case report.SettingAppendfsync:
		if o.SurvivedRestart != nil && *o.SurvivedRestart {
			s = append(s, "A's lock was on the primary's disk: the old primary, restarted from its files, still held it. Sentinel promoted the replica, which never had it.")
		} else {
			s = append(s, "The old primary, restarted from its files, did not hold A's lock.")
		}
	case report.SettingClockSkew:
		if o.EarlyMS > 0 {
			s = append(s, fmt.Sprintf("The lock reached the replica as an absolute deadline, and the replica's clock runs ahead: once promoted, it ended A's lock %s before A's lease ran out by A's clock.", (time.Duration(o.EarlyMS)*time.Millisecond).Round(100*time.Millisecond)))
		}
	}
	if o.DoubleHolder {
		s = append(s, "Two holders at once.")
	} else {
		s = append(s, "One holder at a time.")
	}
	switch o.AWrite {
	case report.WriteRejected:
		s = append(s, "The resource rejected A's stale write: only the fence closed the window.")
	case report.WriteAccepted:
		s = append(s, "The resource accepted A's stale write.")
	}
	return strings.Join(s, " ")
}

// drillEvent words one timeline line.
func drillEvent(e report.DrillEvent) drillEventView {
	ev := drillEventView{At: fmt.Sprintf("+%.3fs", float64(e.AtMS)/1000), Actor: e.Actor, Node: e.Node, Reply: e.Reply}
	if t, err := time.Parse(time.RFC3339Nano, e.Time); err == nil {
		ev.Time = t.UTC().Format("15:04:05.000")
	}
	if len(e.Command) > 0 {
		ev.What, ev.Command = strings.Join(e.Command, " "), true
		switch strings.ToUpper(e.Command[0]) {
		case "EXEC", "WAIT":
			ev.Marked = e.Actor == report.ActorA || e.Actor == report.ActorB
		case "UPDATE":
			ev.Marked = true
		}
		return ev
	}
	ev.Marked = true
	switch e.Step {
	case report.StepHold:
		ev.What = "holds the replication link back (" + map[string]string{"data": "the primary's writes", "link": "both directions"}[e.Detail] + ")"
		ev.Marked = true
	case report.StepStop:
		ev.What = "kills the primary (" + e.Detail + ")"
	case report.StepDropped:
		ev.What = "drops the " + e.Detail + " bytes it held: the replica never sees them"
	case report.StepPromoted:
		ev.What = "every Sentinel names " + e.Node + " the primary"
	case report.StepPause:
		ev.What = "pauses (a GC pause, a slow disk) holding the lock"
	case report.StepWake:
		ms, _ := strconv.ParseInt(e.Detail, 10, 64)
		if ms > 0 {
			ev.What = "wakes; by its own clock its lease has " + (time.Duration(ms) * time.Millisecond).Round(100*time.Millisecond).String() + " left, so it writes"
		} else {
			ev.What = "wakes after its lease ended " + (time.Duration(-ms) * time.Millisecond).Round(100*time.Millisecond).String() + " ago, and writes without checking"
		}
	case report.StepRestart:
		ev.What = "restarts the old primary " + e.Detail + " from its files"
	case report.StepClock:
		ev.What = "runs this node's clock " + e.Detail + " ahead of the machine's"
	case report.StepFinding:
		ev.What = "reports " + e.Detail + " on this node"
	case report.StepTransport:
		ev.What = "could not send: " + e.Detail
	default:
		ev.What = e.Step + " " + e.Detail
	}
	return ev
}

// drillStatus is the headline of a drill run.
func drillStatus(r *report.Run) status {
	dv := newDrillView(r.Drill)
	if dv == nil || dv.Closing == "" {
		if r.Drill.Variant(report.SettingNone) == nil {
			return status{"unknown", "FAILOVER DRILL", "This record has no play without a narrowing setting; each play's outcome is in the table below."}
		}
		return status{"unknown", "FAILOVER DRILL", "The play without a narrowing setting did not reach its end; see its timeline below."}
	}
	class := "safe"
	if v := r.Drill.Variant(report.SettingNone); v != nil && v.Outcome.DoubleHolder {
		class = "unsafe"
	}
	return status{class, "FAILOVER DRILL", "Real failover, no narrowing setting: " + dv.Closing + "."}
}

// writeDrill prints the drill as text: the table, then every timeline.
func writeDrill(p *errWriter, d *report.Drill) {
	dv := newDrillView(d)
	p.printf("Failover drill (%s; %s; lock lease %s)\n\n", dv.Fleet, dv.Server, dv.Lease)
	for _, v := range dv.Variants {
		p.printf("%s\n", v.Title)
		if v.Note != "" {
			p.printf("  %s\n\n", v.Note)
			continue
		}
		for _, e := range v.Events {
			p.printf("%s\n", e.line())
		}
		p.printf("  %s\n\n", v.Meaning)
	}
	writeDrillTable(p, dv)
}

// writeDrillTable prints the closing table and line.
func writeDrillTable(p *errWriter, dv *drillView) {
	t := NewTable(p)
	t.Header("SETTING", "WHAT A WAS TOLD", "DOUBLE HOLDER PREVENTED?", "STALE WRITE REJECTED BY THE FENCE?")
	for _, r := range dv.Rows {
		if err := t.Append(r.Setting, r.ASaw, r.Prevented, r.Rejected); err != nil && p.err == nil {
			p.err = err
		}
	}
	if err := t.Render(); err != nil && p.err == nil {
		p.err = err
	}
	if dv.Closing != "" {
		p.printf("\n%s\n", dv.Closing)
	}
}

// drill writes the Markdown section.
func (md *mdWriter) drill(dv *drillView) {
	md.line(fmt.Sprintf("Fleet: %s; %s; lock lease %s.", dv.Fleet, dv.Server, dv.Lease))
	md.line("")
	md.table([]string{"Setting", "What A was told", "Double holder prevented?", "Stale write rejected by the fence?"}, func(row func(...string)) {
		for _, r := range dv.Rows {
			row(mdEscape(r.Setting), mdEscape(r.ASaw), r.Prevented, mdEscape(r.Rejected))
		}
	})
	if dv.Closing != "" {
		md.line("")
		md.line("**" + mdEscape(dv.Closing) + "**")
	}
	for _, v := range dv.Variants {
		md.line("")
		md.line("### " + mdEscape(v.Title))
		md.line("")
		if v.Note != "" {
			md.line(mdEscape(v.Note))
			continue
		}
		md.table([]string{"At", "Actor", "Node", "Command or step", "Reply"}, func(row func(...string)) {
			for _, e := range v.Events {
				what := mdEscape(e.What)
				if e.Command {
					what = mdCode(e.What)
				}
				row(e.At, e.Actor, mdCode(e.Node), what, mdEscape(e.Reply))
			}
		})
		md.line("")
		md.line(mdEscape(v.Meaning))
	}
}

// DrillEventLine is one timeline event as `lockaudit drill` prints it live
// and the text report prints it.
func DrillEventLine(e report.DrillEvent) string { return drillEvent(e).line() }

func (ev drillEventView) line() string {
	line := fmt.Sprintf("  %8s  %-8s %-21s %s", ev.At, ev.Actor, ev.Node, ev.What)
	if ev.Reply != "" {
		line += "  → " + ev.Reply
	}
	return line
}

// WriteDrillTable writes the drill's closing table, each variant's meaning
// and the closing line, as the text report ends its drill section.
func WriteDrillTable(w io.Writer, d *report.Drill) error {
	p := &errWriter{w: w}
	writeDrillTable(p, newDrillView(d))
	return p.err
}
