package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/internal/outfile"
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
	format, out string
	fix, diff   bool
	exitZero    bool
	code        codeFlags
	patterns    []string
}

func parseVetFlags(e *env, args []string) (*vetOptions, error) {
	o := &vetOptions{}
	fs := newFlagSet(e, "vet")
	fs.StringVar(&o.format, "format", "", "output `format`: "+strings.Join(report.Formats(), ", ")+" (default text, or from -o's extension)")
	fs.StringVar(&o.out, "o", "", "write the report to `FILE` instead of stdout (\"-\" is stdout)")
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
	if o.out == "-" {
		o.out = "" // stdout
	}
	if o.format == "" {
		o.format = "text"
		if o.out != "" {
			f, err := report.FormatFromPath(o.out)
			if err != nil {
				return nil, usageError("-o: %v", err)
			}
			o.format = f
		}
	}
	if err := checkFormat(o.format); err != nil {
		return nil, err
	}
	if o.fix && o.code.WriteBaseline != "" {
		return nil, usageError("-fix and -write-baseline do not go together: fix first, then write the baseline of what remains")
	}
	if err := o.code.load(e); err != nil {
		return nil, err
	}
	if o.out != "" {
		if err := outfile.Check(o.code.abs(o.out)); err != nil {
			return nil, usageError("-o: %v (-o - writes to stdout)", err)
		}
	}
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
		if !o.fix && o.out == "" {
			// -diff: stdout holds the diff, not the report.
			fmt.Fprintf(e.Stderr, "lockaudit vet: %s\n", report.Summary(run))
			return runExit(run, o.exitZero)
		}
	}
	return emit(ctx, e, run, o.code.renderOptions(), o.format, o.out, o.code.Dir, o.exitZero)
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
		fmt.Fprintf(e.Stderr, "lockaudit vet: %d of %d findings have a fix, changing %d files; -fix applies them\n", len(plan.Fixed), len(run.Active()), len(plan.Files))
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
		fmt.Fprintf(e.Stderr, "lockaudit vet: fixed %d findings in %d files:\n", len(plan.Fixed), len(written))
		for _, f := range plan.Fixed {
			fmt.Fprintf(e.Stderr, "  %s\n", report.Escape(f.Where()+": "+f.Rule+" "+strings.Join(fixes.Messages(f), "; ")))
		}
	}
	if len(written) == 0 {
		return run, nil
	}
	o.code.Fixes = nil
	return o.code.run(ctx, e, o.patterns)
}

// emit renders the run (with the renderers' options: -show-suppressed) to
// -o (relative to dir, as -C applies to every path) or stdout, prints the
// run's errors (packages that did not load) on stderr unless the text
// report on stdout already shows them, then a one-line summary on stderr,
// and ends with the run's exit code (runExit): the summary and exit code
// are always the run's.
func emit(ctx context.Context, e *env, run *report.Run, opts report.Options, format, out, dir string, exitZero bool) error {
	var buf bytes.Buffer
	if err := report.RenderWith(&buf, run.Redact(e.redactor()), format, opts); err != nil {
		return failure("rendering %s: %v", format, err)
	}
	if err := stopped(ctx); err != nil {
		return err // interrupted: the old report stays as it was
	}
	if out != "" {
		if err := outfile.Write(inDir(dir, out), buf.Bytes()); err != nil {
			return failure("%v", err)
		}
	} else if _, err := e.Stdout.Write(buf.Bytes()); err != nil {
		return failure("writing the report: %v", err)
	}
	if format != "text" || out != "" {
		report.WriteErrors(e.Stderr, run.Errors)
	}
	summary := report.Summary(run)
	if out != "" {
		summary += "; report written to " + out
	}
	fmt.Fprintf(e.Stderr, "lockaudit vet: %s\n", report.Escape(summary))
	return runExit(run, exitZero)
}

// registerExitZero adds -exit-zero (vet, audit, probe, preflight).
func registerExitZero(fs *flag.FlagSet, p *bool) {
	fs.BoolVar(p, "exit-zero", false, "exit 0 even when the run reports findings or an unsafe verdict (3), e.g. to upload a report without failing the job; an incomplete run (1), a usage error (2) and unknown evidence (4) still fail")
}

// runExit ends a command with its run's exit status: report.ExitCode,
// except that with -exit-zero findings and unsafe verdicts (3) exit 0.
// Unknown is never turned into a pass, nor is an incomplete run.
func runExit(run *report.Run, exitZero bool) error {
	code := report.ExitCode(run)
	if exitZero && code == report.ExitFindings {
		code = 0
	}
	return exitWith(code)
}
