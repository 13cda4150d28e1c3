package main

import (
	"context"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/join"
)

func init() {
	register(&command{
		Name:    "audit",
		Usage:   "audit [flags] -addr HOST[:PORT][,...] [packages]\naudit [flags] -sentinel HOST[:PORT][,...] [-master NAME] [packages]",
		Summary: "Audit the lock code and the live fleet together: one verdict, one report.",
		Doc: `Does every node that can become primary support the commands the code
relies on?

The code half is vet's (same flags, .lockaudit.yaml, //lockaudit:ignore,
-baseline); from it lockaudit derives which commands the code relies on,
and where: DELIFEQ, DELEX, SET IFEQ, Lua (EVAL/EVALSHA, FCALL, script
objects, and lock libraries that run Lua: redsync, bsm/redislock,
valkeylock, rueidislock). The probe then reads the fleet read-only
(probe's connection flags; defaults from the config file's probe:
section) and judges exactly those commands. Each verdict reason names the
code line and the node, e.g. "native_release: unsafe — the code releases
with DELIFEQ (billing/billing.go:56) but replica 10.0.0.7:6379 (Valkey
8.1.1, promotable) has no DELIFEQ ...; upgrade ...". A command the code
does not send is reported as not relied on.

A host without a port means port 6379 (26379 for -sentinel). The
password comes from LOCKAUDIT_PASSWORD or -password-file, never from a
flag value.

Reports: text on stdout by default; -o FILE (repeatable) writes each file
in the format of its extension (.html, .md, .sarif, .json, .txt) unless
-format is given. Progress goes to stderr when it is a terminal.

For a client: -title, -client, -system, -environment and -author name the
engagement (defaults: the config file's report: section), -notes FILE adds
Markdown notes, and -since OLD.json compares the run with an earlier one.
The module path and git revision of the code and the time the fleet was
read are recorded too; all of it is in the JSON report, so render
reproduces each report. Every report carries an executive summary and a
numbered remediation plan.`,
		Examples: `lockaudit audit -addr 10.0.0.1 ./...                       # any node of a primary/replica set
lockaudit audit -sentinel 10.0.0.9 -master orders ./...
lockaudit audit -addr 10.0.0.1:6380 -o report.html -o run.json ./...
lockaudit audit -addr 10.0.0.1 -client "ACME" -notes notes.md -since before.json -o after.html ./...
LOCKAUDIT_PASSWORD=... lockaudit audit -user probe -tls -addr valkey.internal ./...`,
		Exit: `0  no findings, and every verdict the code relies on is safe
1  the run is incomplete: a package did not load, or no node could be
   probed at all (an audit without its fleet half must not pass)
2  usage error, including a bad config file
3  a code finding, an error-severity node finding, or a verdict the code
   relies on is unsafe or missing (0 with -exit-zero)
4  a verdict the code relies on is unknown (a node or a fact could not be
   read)`,
		Run: runAudit,
	})
}

// auditFlags are audit's parsed flags: vet's code half, probe's
// connection flags, and the outputs.
type auditFlags struct {
	code     codeFlags
	conn     connFlags
	reports  reportFlags
	meta     engagementFlags
	exitZero bool
	patterns []string
	plan     *outPlan
}

func parseAuditFlags(e *env, args []string) (*auditFlags, error) {
	if err := refusePasswordFlags(args); err != nil {
		return nil, err
	}
	o := &auditFlags{}
	fs := newFlagSet(e, "audit")
	o.code.register(fs, false)
	o.conn.register(fs)
	o.reports.register(fs)
	o.meta.register(fs)
	registerExitZero(fs, &o.exitZero)
	if done, err := parseFlags(fs, args); done {
		return nil, err
	}
	patterns, err := packagePatterns(fs)
	if err != nil {
		return nil, err
	}
	o.patterns = patterns
	o.code.Uses = true
	if err := o.code.load(e); err != nil {
		return nil, err
	}
	if err := o.meta.load(o.code.Dir, o.code.Config); err != nil {
		return nil, err
	}
	if err := o.conn.resolve(fs, o.code.Config, nil, "-addr HOST[:PORT][,HOST[:PORT]]"); err != nil {
		return nil, err
	}
	plan, err := o.reports.plan(o.code.Dir)
	if err != nil {
		return nil, err
	}
	o.plan = plan
	return o, nil
}

func runAudit(ctx context.Context, e *env, args []string) error {
	o, err := parseAuditFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	opts, err := o.conn.options(ctx, e, o.code.Dir)
	if err != nil {
		return err
	}
	prog := newProgress(e, "audit", o.plan)
	defer prog.done()
	// The fleet first: its own target decides where the code is judged
	// (unless -target or the config file names one).
	opts.Progress = prog.nodes
	prog.phase("probing the fleet")
	col, err := probe.Collect(ctx, opts)
	if err := stopped(ctx); err != nil {
		return err // whatever the probe made of it, an interrupted fleet half is not evidence
	}
	if err != nil {
		return usageError("%v", err)
	}
	choice := o.code.deriveTarget(probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology}).Target)
	prog.phase("loading and analysing packages")
	code, err := o.code.run(ctx, e, o.patterns)
	if err != nil {
		return err
	}
	prog.done()
	run := judgeFleet("audit", code, col, opts.Skew)
	run.TargetFrom = choice
	applyRuleSettings(run, o.code.Config)
	run.Probed = col.Probed
	o.meta.apply(ctx, run, o.code.Dir)
	return writeReports(ctx, e, "audit", run, o.plan, o.code.renderOptions(), o.exitZero)
}

// judgeFleet composes audit and preflight: the fleet's facts (probed or
// declared) are evaluated for the commands the code relies on, judged
// against the code's uses, and joined with the code half into one run.
func judgeFleet(command string, code *report.Run, col *probe.Collection, skew time.Duration) *report.Run {
	ev := probe.Evaluate(col.Facts, probe.EvalOptions{Relied: code.UsedCommands(), Skew: skew, Topology: col.Topology})
	fleet := ev.Run(col.Topology, code.Uses, true)
	fleet.Errors = col.Errors
	run := join.Runs(command, code, fleet, time.Now())
	run.UsesFrom = report.UsesFromCode
	return run
}
