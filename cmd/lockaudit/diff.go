package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

func init() {
	register(&command{
		Name:    "diff",
		Usage:   "diff [flags] OLD.json NEW.json",
		Summary: "Compare two saved JSON runs: fixed, new and unchanged findings, verdict changes, upgraded servers.",
		Doc: `After remediation, what changed since the last audit? diff reads two JSON
runs (written with -format json or -o run.json), the earlier first, and
reports:

  - findings fixed, new and unchanged: code findings are matched by rule,
    file and a hash of their source line (as -baseline matches them), so
    a finding on a line that moved is unchanged; server findings by rule
    and node address. A finding active before and suppressed now is
    reported as suppressed, not fixed;
  - each lock path's verdict before and now;
  - each node, by address: upgraded (a newer release of the same server),
    downgraded, added, removed, or changed (its role, promotability or
    answers).

A half that only one run looked at (the code, or the servers) is not
compared, and the report says so: a run that did not analyse the code has
not fixed its findings.

Text on stdout by default; -o FILE (repeatable) writes each file in the
format of its extension (.html, .md, .sarif, .json, .txt) unless -format
is given. SARIF marks each result's baselineState (new, unchanged, absent
for a fixed finding). audit and preflight -since OLD.json put the same
comparison into their reports.`,
		Examples: `lockaudit diff before.json after.json
lockaudit diff -o changes.html -o changes.json before.json after.json
lockaudit diff -format sarif before.json after.json > changes.sarif`,
		Exit: `0  nothing got worse
1  a run cannot be read, or a report cannot be written
2  usage error
3  the new run has a finding that fails a run (an error, or a code
   warning) that the old one did not, or a verdict became unsafe (missing)
4  a verdict became unknown`,
		Run: runDiff,
	})
}

func runDiff(ctx context.Context, e *env, args []string) error {
	defer boundMemory(e)()
	fs := newFlagSet(e, "diff")
	var r reportFlags
	r.registerOutputs(fs)
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() != 2 {
		return usageError("want two runs, the earlier first: OLD.json NEW.json (got %d)", fs.NArg())
	}
	plan, err := r.plan(e.Dir)
	if err != nil {
		return err
	}
	var runs [2]*report.Run
	for i, name := range fs.Args() {
		if runs[i], err = readRun(inDir(e.Dir, name)); err != nil {
			return failure("%v", err)
		}
	}
	report.CarryIDs(runs[0], runs[1])
	c := report.Compare(runs[0], runs[1])
	tool := report.Tool{Name: "lockaudit", Version: version()}
	redacted := c.Redact(e.redactor())
	written, _, err := emitReports(ctx, e, plan, func(w io.Writer, format string, _ bool) error {
		return render.RenderComparison(w, redacted, tool, format)
	})
	if err != nil {
		return err
	}
	n := c.Counts()
	upgraded := 0
	for _, nc := range c.Nodes {
		if nc.Change == report.NodeUpgraded {
			upgraded++
		}
	}
	line := fmt.Sprintf("%d fixed, %d new, %d unchanged; %s upgraded", n[report.ChangeFixed], n[report.ChangeNew], n[report.ChangeUnchanged], report.Plural(upgraded, "server"))
	if len(written) > 0 {
		line += "; report written to " + strings.Join(written, ", ")
	}
	fmt.Fprintf(e.Stderr, "lockaudit diff: %s\n", report.Escape(line))
	return exitWith(c.DiffExit())
}
