package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lockaudit/lockaudit/probe/drill"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

func init() {
	register(&command{
		Name:    "drill",
		Usage:   "drill [-only SETTING,...] [-o FILE]...\ndrill -against SENTINEL[:PORT] -master NAME -force-failover-and-write-scratch-keys [-o FILE]...",
		Summary: "Play the failover race on real servers: the double holder, and the fence that stops it.",
		Doc: `Starts a Sentinel-managed Valkey primary and replica on loopback (three
Sentinels; the servers .ci/install-servers installs) and plays, step by
step with the native commands, the race every lock guide warns about:
A takes the lock and its fence in one MULTI (SET NX PX + INCR); a
loopback proxy holds the replication link back, so the replica never
gets it; the primary is killed; Sentinel promotes the replica; B takes
the same lock and draws its fence; A, paused all along, wakes and
writes. A real resource (SQLite, UPDATE … WHERE last_fence < ?) checks
the fence: B's write is accepted, A's stale write rejected.

The same race is then played with each setting that narrows the window
— WAIT 1, min-replicas-to-write 1 (the link lost within
min-replicas-max-lag, then down for longer), appendfsync always — and
with the replica's clock running ahead (a preload library built with
the C compiler; the probe reports LA207 on that fleet). It prints each
timeline as it happens, a table (setting → double holder prevented? →
stale write rejected by the fence?) and the closing line for the race
without any setting. -o drill.json keeps the record: lockaudit render
turns it into a report section, and lockaudit audit -drill drill.json
attaches it to a client's report as evidence.

Every server and the proxy are stopped when the drill ends: on success,
on error, on Ctrl-C and SIGTERM. It only ever connects to loopback.

-against plays the race on a staging Sentinel fleet instead (nothing is
started): it forces a failover with SENTINEL FAILOVER and writes scratch
keys, so it refuses to run without -force-failover-and-write-scratch-keys,
and refuses a Sentinel that monitors any primary but -master.`,
		Examples: `lockaudit drill                              # every setting, on loopback
lockaudit drill -only none -o drill.json     # the race alone, kept as a record
lockaudit render -f html < drill.json > drill.html
lockaudit audit -addr 10.0.0.1 -drill drill.json -o report.html ./...`,
		Exit: `0  the drill was played (its outcome is in the table)
1  it could not be: servers not installed, a play stopped early, a
   report could not be written
2  usage error
130  interrupted (Ctrl-C); 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT: every
     server and the proxy are stopped, and no report is written`,
		Run: runDrill,
	})
}

func runDrill(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "drill")
	var rf reportFlags
	rf.registerOutputs(fs) // -o, -format, -json, -color: the drill's status is not a run's gate
	only := fs.String("only", "", "play only these settings, comma-separated: "+strings.Join(drill.Settings, ", "))
	against := fs.String("against", "", "play the race on the staging Sentinel at `ADDR` (HOST[:PORT]) instead of servers of its own")
	master := fs.String("master", "", "with -against: the `NAME` of the only primary the Sentinel may monitor")
	force := fs.Bool("force-failover-and-write-scratch-keys", false, "with -against: allow the drill to force a failover of -master and write scratch keys on it")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("drill takes no arguments, got %s", strings.Join(fs.Args(), " "))
	}
	plan, err := rf.plan(e.Dir)
	if err != nil {
		return err
	}
	if *against != "" {
		return drillAgainst(ctx, e, *against, *master, *force, plan)
	}
	if *master != "" || *force {
		return usageError("-master and -force-failover-and-write-scratch-keys go with -against; the local drill needs neither")
	}
	var settings []string
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			s = strings.TrimSpace(s)
			if !contains(drill.Settings, s) {
				return usageError("-only: unknown setting %q (want %s)", s, strings.Join(drill.Settings, ", "))
			}
			settings = append(settings, s)
		}
	}
	dir, err := os.MkdirTemp("", "lockaudit-drill-")
	if err != nil {
		return failure("%v", err)
	}
	defer os.RemoveAll(dir)

	out := e.Stdout
	fmt.Fprintf(out, "Failover drill: each setting on a fresh Sentinel-managed primary and replica on loopback.\n")
	current := ""
	var started []string // this variant's servers and proxy, printed with its first event
	d, err := drill.Run(ctx, drill.Options{
		Settings: settings,
		Dir:      dir,
		Servers:  e.Getenv("LOCKAUDIT_SERVERS"),
		Version:  version(),
		Started:  func(addr string, _ int) { started = append(started, addr) },
		Event: func(setting string, ev report.DrillEvent) {
			if setting != current {
				current = setting
				fmt.Fprintf(out, "\n%s\n  started on loopback: %s\n", render.DrillSettingTitle(setting), strings.Join(started, " "))
			}
			started = nil
			fmt.Fprintln(out, render.DrillEventLine(ev))
		},
	})
	if err := stopped(ctx); err != nil {
		return err
	}
	if err != nil {
		return failure("%v", err)
	}
	return drillFinish(ctx, e, d, plan)
}

// drillFinish prints the table and the closing line, writes the reports
// and fails when a play stopped early.
func drillFinish(ctx context.Context, e *env, d *report.Drill, plan *outPlan) error {
	out := e.Stdout
	fmt.Fprintln(out)
	for _, v := range d.Variants {
		if v.Error != "" {
			fmt.Fprintf(out, "%s: stopped early: %s\n", render.DrillSettingTitle(v.Setting), v.Error)
		} else if v.Skipped != "" {
			fmt.Fprintf(out, "%s: not played: %s\n", render.DrillSettingTitle(v.Setting), v.Skipped)
		}
	}
	run := report.New("drill", version())
	run.Drill = d
	for _, v := range d.Variants {
		if v.Error != "" {
			run.Errors = append(run.Errors, report.Error{Where: "drill " + v.Setting, Message: v.Error})
		}
	}
	if outs := rfOuts(plan); len(outs.targets) > 0 {
		written, _, err := emitReports(ctx, e, outs, func(w io.Writer, format string, color bool) error {
			return render.RenderWith(w, run, format, render.Options{Color: color})
		})
		if err != nil {
			return err
		}
		if len(written) > 0 {
			fmt.Fprintf(out, "Record: %s (lockaudit render turns it into a report; lockaudit audit -drill attaches it)\n\n", strings.Join(written, ", "))
		}
	}
	if err := render.WriteDrillTable(out, d); err != nil {
		return failure("%v", err)
	}
	if len(run.Errors) > 0 {
		return exitWith(report.ExitFailed)
	}
	return nil
}

// rfOuts is the plan without a text report on stdout: the drill has
// printed its timelines and table there already.
func rfOuts(plan *outPlan) *outPlan {
	out := *plan
	out.targets = nil
	for _, t := range plan.targets {
		if t.dest == toStdout && t.format == "text" {
			continue
		}
		out.targets = append(out.targets, t)
	}
	return &out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
