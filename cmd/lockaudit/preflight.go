package main

import (
	"context"
	"strings"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/inventory"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
)

func init() {
	register(&command{
		Name:    "preflight",
		Usage:   "preflight [flags] -target RELEASE[,RELEASE] [packages]\npreflight [flags] -inventory FILE [packages]",
		Summary: "Check the lock code against a declared fleet (-target, -inventory), no server needed.",
		Doc: `Before an upgrade: is the lock code safe on the fleet you describe, and
what must change first?

The code half is vet's (same flags and config file); from it lockaudit
derives which commands the code relies on. The fleet is declared, not
probed: -target valkey-9.0 (or several, comma-separated: "if some nodes
stay on 8.1") stands for one primary per release; -inventory FILE lists
the nodes with their roles and versions (and replica_priority,
no_failover, lua: false), as the fleet will be during the upgrade; the
config file's target: is used when neither is given. Each node gets the
features of its version and the probe's verdict logic decides, so a
declared fleet and a probed one are judged alike. Reasons name the code
line, the node, and what to change first, e.g. "upgrade 10.0.0.7:6379 from
valkey-8.1.1 to a release with DELIFEQ before releasing with it, or set
its replica-priority 0".

Reports name the engagement (-title, -client, -system, -environment,
-author, -notes; or the config file's report: section), record the code's
module and git revision, carry an executive summary and a remediation
plan, and with -since OLD.json compare the run with an earlier one.

An inventory file:

` + indent(inventory.Example),
		Examples: `lockaudit preflight -target valkey-9.0 ./...              # "if the whole fleet ran 9.0"
lockaudit preflight -target valkey-9.0,valkey-8.1 ./...   # "... and some nodes stay on 8.1"
lockaudit preflight -inventory fleet.yaml -o report.html ./...`,
		Exit: `0  no findings, and every verdict the code relies on is safe
1  a package did not load
2  usage error, including a malformed inventory (the error names the file,
   the line and the key), a bad config file, or no fleet given
3  findings, or a verdict the code relies on is unsafe (0 with -exit-zero)`,
		Run: runPreflight,
	})
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ") + "\n"
}

// preflightFlags are preflight's parsed flags.
type preflightFlags struct {
	code      codeFlags
	inventory string
	reports   reportFlags
	meta      engagementFlags
	exitZero  bool
	patterns  []string
	plan      *outPlan
	inv       *inventory.File
}

func parsePreflightFlags(e *env, args []string) (*preflightFlags, error) {
	o := &preflightFlags{}
	fs := newFlagSet(e, "preflight")
	o.code.register(fs, false)
	fs.StringVar(&o.inventory, "inventory", "", "the declared fleet: a YAML `FILE` of nodes with roles and versions (see lockaudit help preflight)")
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
	if o.inventory != "" {
		inv, err := inventory.Load(o.code.abs(o.inventory))
		if err != nil {
			return nil, usageError("-inventory: %v", err)
		}
		o.inv = inv
	} else if o.code.Target == "" && (o.code.Config == nil || len(o.code.Config.Targets) == 0) {
		return nil, usageError("no fleet to check: give -target RELEASE[,RELEASE] (e.g. -target valkey-9.0), -inventory FILE, or target: in %s", config.FileName)
	}
	plan, err := o.reports.plan(o.code.Dir)
	if err != nil {
		return nil, err
	}
	o.plan = plan
	return o, nil
}

func runPreflight(ctx context.Context, e *env, args []string) error {
	o, err := parsePreflightFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	run, err := preflight(ctx, e, &o.code, o.inv, o.patterns, newProgress(e, "preflight", o.plan))
	if err != nil {
		return err
	}
	applyRuleSettings(run, o.code.Config)
	o.meta.apply(ctx, run, o.code.Dir)
	return writeReports(ctx, e, "preflight", run, o.plan, o.code.renderOptions(), o.exitZero)
}

// preflight runs the code half on patterns and judges what it relies on
// against the declared fleet: the inventory, or without one a primary per
// target. prog (nil: none) shows the analysis.
func preflight(ctx context.Context, e *env, code *codeFlags, inv *inventory.File, patterns []string, prog *progress) (*report.Run, error) {
	col, err := declaredFleet(inv, code.Targets)
	if err != nil {
		return nil, usageError("%v", err)
	}
	// An inventory declares the fleet's own target, judged there unless
	// -target or the config file names one.
	var derived probe.Target
	if inv != nil {
		derived = probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology}).Target
	}
	choice := code.deriveTarget(derived)
	prog.phase("loading and analysing packages")
	run, err := code.run(ctx, e, patterns)
	prog.done()
	if err != nil {
		return nil, err
	}
	run = judgeDeclared(run, col)
	run.TargetFrom = choice
	return run, nil
}

// judgeDeclared joins the code half with a declared fleet as preflight
// reports it: the inventory's topology decides who can be promoted, the
// run's topology is "declared".
func judgeDeclared(code *report.Run, col *probe.Collection) *report.Run {
	run := judgeFleet("preflight", code, col, 0)
	run.Topology = probe.DeclaredTop
	return run
}

// declaredFleet is the fleet preflight judges: the inventory's nodes, or
// without one a primary per -target release (probe/inventory).
func declaredFleet(inv *inventory.File, targets []string) (*probe.Collection, error) {
	if inv == nil {
		facts, err := inventory.Targets(targets)
		return &probe.Collection{Facts: facts, Topology: probe.DeclaredTop}, err
	}
	facts, topology := inv.Facts()
	return &probe.Collection{Facts: facts, Topology: topology}, nil
}
