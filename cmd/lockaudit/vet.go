package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/report"
)

func init() {
	register(&command{
		Name:    "vet",
		Usage:   "vet [flags] [packages]",
		Summary: "Analyse Go packages for lock code that breaks on Valkey 9 or in a failover.",
		Doc: `Runs the LA1xx rules over the packages (default ./...; flags may come
before or after them). Text output is one finding per line,
file:line:col: RULE message, paths relative to the module root, and a
one-line summary on stderr.

Settings come from .lockaudit.yaml (found by walking up from the working
directory, or -config FILE); flags win over it. //lockaudit:ignore RULE --
reason suppresses a finding on its line or the next. -baseline FILE
reports only the findings that are not in it. Rules are named by ID
(LA103) or name (plain-del-release) wherever a rule is expected.

-diff prints the findings' suggested fixes as a unified diff and changes
nothing; -fix applies them, says what it fixed, then analyses again and
reports what remains.`,
		Examples: `lockaudit vet ./...                                  # text findings, summary on stderr
lockaudit vet -format sarif -o lockaudit.sarif ./... # SARIF for code scanning
lockaudit vet ./... -target valkey-8.1               # the oldest server the code must run on
lockaudit vet -rules plain-del-release,LA104 ./...   # only these rules (IDs or names)
lockaudit vet -baseline .lockaudit-baseline.json ./...
lockaudit vet -exit-zero -o lockaudit.sarif ./...    # report, but do not fail on findings
lockaudit vet -diff ./...                            # the suggested fixes, as a diff`,
		Exit: `0  no findings
1  the analysis could not complete: a package did not load or compile, a
   pattern matched nothing (the errors are shown; the packages that did
   load are still analysed), or a file could not be written
2  usage error, including a bad config or baseline file
3  findings (with -fix: findings remain after fixing); 0 with -exit-zero`,
		Run: runVet,
	})
}

// vetOptions are vet's parsed flags.
type vetOptions struct {
	reports   reportFlags
	plan      *outPlan
	fix, diff bool
	exitZero  bool
	code      codeFlags
	patterns  []string
}

func parseVetFlags(e *env, args []string) (*vetOptions, error) {
	o := &vetOptions{}
	fs := newFlagSet(e, "vet")
	o.reports.register(fs)
	o.code.register(fs, true)
	fs.BoolVar(&o.fix, "fix", false, "apply the findings' suggested fixes, then analyse again and report what remains")
	fs.BoolVar(&o.diff, "diff", false, "print the findings' suggested fixes as a unified diff on stdout (instead of the report, unless -o) and change nothing")
	registerExitZero(fs, &o.exitZero)
	if done, err := parseFlags(fs, args); done {
		return nil, err
	}
	patterns, err := packagePatterns(fs)
	if err != nil {
		return nil, err
	}
	o.patterns = patterns
	if o.fix && o.code.WriteBaseline != "" {
		return nil, usageError("-fix and -write-baseline do not go together: fix first, then write the baseline of what remains")
	}
	if err := o.code.load(e); err != nil {
		return nil, err
	}
	plan, err := o.reports.plan(o.code.Dir)
	if err != nil {
		return nil, err
	}
	o.plan = plan
	return o, nil
}

func runVet(ctx context.Context, e *env, args []string) error {
	o, err := parseVetFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	if o.fix || o.diff {
		o.code.Fixes = driver.NewFixes()
	}
	run, err := o.code.run(ctx, e, o.patterns)
	if err != nil {
		return err
	}
	if o.fix || o.diff {
		if run, err = fixRun(ctx, e, o, run); err != nil {
			return err
		}
		if !o.fix && len(o.reports.outs) == 0 {
			// -diff: stdout holds the diff, not the report.
			run.FailOn = o.plan.failOn
			fmt.Fprintf(e.Stderr, "lockaudit vet: %s\n", report.Summary(run))
			return runExit(run, o.exitZero)
		}
	}
	return writeReports(ctx, e, "vet", run, o.plan, o.code.renderOptions(), o.exitZero)
}

// fixRun handles -diff and -fix on an analysed run: it plans the fixes of
// the findings the run reports (not suppressed, not baselined), prints the
// plan as a unified diff (-diff), writes it (-fix: each file atomically,
// and only when it is unchanged since the analysis), says on stderr what
// was fixed and what was not, and after writing analyses again, so the
// report, its positions and the exit status are those of the fixed code.
// It returns the run to report.
func fixRun(ctx context.Context, e *env, o *vetOptions, run *report.Run) (*report.Run, error) {
	fixes := o.code.Fixes
	plan := fixes.Plan(run.Findings)
	if o.diff {
		if err := plan.Diff(e.Stdout); err != nil {
			return nil, failure("writing the diff: %v", err)
		}
	}
	for _, s := range plan.Skipped {
		fmt.Fprintf(e.Stderr, "lockaudit vet: %s\n", report.Escape(s.String()))
	}
	if !o.fix {
		fmt.Fprintf(e.Stderr, "lockaudit vet: %d of %s %s a fix, changing %s; -fix applies them\n", len(plan.Fixed), report.Plural(len(run.Active()), "finding"), map[bool]string{true: "has", false: "have"}[len(plan.Fixed) == 1], report.Plural(len(plan.Files), "file"))
		return run, nil
	}
	if err := stopped(ctx); err != nil {
		return nil, err // nothing fixed yet
	}
	written, err := plan.Apply()
	if err != nil {
		if len(written) > 0 {
			return nil, failure("-fix: %v (already written: %s)", err, strings.Join(written, ", "))
		}
		return nil, failure("-fix: %v", err)
	}
	if len(written) == 0 {
		fmt.Fprintf(e.Stderr, "lockaudit vet: nothing to fix\n")
	} else {
		fmt.Fprintf(e.Stderr, "lockaudit vet: fixed %s in %s:\n", report.Plural(len(plan.Fixed), "finding"), report.Plural(len(written), "file"))
		for _, f := range plan.Fixed {
			fmt.Fprintf(e.Stderr, "  %s\n", report.Escape(f.Where()+": "+string(f.Rule)+" "+strings.Join(fixes.Messages(f), "; ")))
		}
	}
	if len(written) == 0 {
		return run, nil
	}
	o.code.Fixes = nil
	return o.code.run(ctx, e, o.patterns)
}
