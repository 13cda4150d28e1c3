package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

func init() {
	register(&command{
		Name:    "render",
		Usage:   "render [flags] [RUN.json | -]",
		Summary: "Re-render a saved JSON run (from -format json) in another format.",
		Doc: `Probe inside a client's network with -format json, write the report
elsewhere. The run is read from the file argument, or from stdin when
there is none or it is "-". Each -o FILE gets the format of its extension
(.html, .md, .sarif, .json, .txt) unless -format is given; without -o the
report goes to stdout (default format text). Reports are written only
when every one rendered.

The input must be a JSON run of schema_version 1 or 2 (docs/json.md);
unknown fields are errors, so a report never silently drops what it
cannot show, and a run that contradicts itself (a verdict its own nodes or
findings do not allow) is refused.

render exits 0 once the reports are written, whatever the run found, so
a script that renders under set -e goes on. -exit-status exits with the
saved run's own status instead, computed exactly as the original command
did.

-since OLD.json adds the comparison with an earlier run (as audit -since
does), so a report of the run after remediation shows what changed.`,
		Examples: `lockaudit render -o report.html run.json
lockaudit render -since before.json -o after.html after.json
lockaudit probe -format json 10.0.0.1 | lockaudit render -o fleet.md
lockaudit render -exit-status -o report.sarif run.json   # fail like the original run`,
		Exit: `0  the reports were written (with -exit-status: the run was clean)
1  the input cannot be read or is not a lockaudit JSON run of schema
   version 1 or 2, or a report cannot be written (the message says which);
   with -exit-status also: the saved run was incomplete
2  usage error
3  with -exit-status: the saved run has findings or an unsafe verdict
4  with -exit-status: a verdict the run relied on is unknown`,
		Run: runRender,
	})
}

// savedRunMemory is the soft memory limit of the commands that read saved
// runs and render them (render, diff): decoding and rendering make garbage
// several times the size of the run, which the collector then frees before
// the process grows past this rather than at twice the live heap. With the
// saved-run limits (report.MaxRunKept) every run renders within it
// (docs/performance.md#rendering-saved-runs).
const savedRunMemory = 150 << 20

// boundMemory sets savedRunMemory for the rest of a command and returns
// what puts the previous limit back; GOMEMLIMIT, when set, wins.
func boundMemory(e *env) (restore func()) {
	if e.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(savedRunMemory)
	return func() { debug.SetMemoryLimit(prev) }
}

func runRender(ctx context.Context, e *env, args []string) error {
	defer boundMemory(e)()
	fs := newFlagSet(e, "render")
	// The paths are checked when writing: render is quick, and a bad -o
	// is an exit 1, as documented above.
	rf := reportFlags{noCheck: true}
	rf.registerOutputs(fs)
	prefix := fs.String("path-prefix", "", "put `DIR` in front of every source path in the reports (the module's folder in its repository, so SARIF and annotations point at the repository's files)")
	since := fs.String("since", "", "compare the run with an earlier JSON run (`OLD.json`) and show the comparison in the reports (the JSON report then carries it)")
	exitStatus := fs.Bool("exit-status", false, "exit with the saved run's status (3 findings or unsafe, 4 unknown, 1 incomplete) instead of 0 once the reports are written")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 1 {
		return usageError("one input at a time, got %d: %s", fs.NArg(), strings.Join(fs.Args(), " "))
	}
	plan, err := rf.plan(e.Dir)
	if err != nil {
		return err
	}
	pathPrefix, err := report.CleanPathPrefix(*prefix)
	if err != nil {
		return usageError("-path-prefix: %v", err)
	}

	// Reading stdin (or a named pipe) can wait for ever; an interruption
	// must still end the command.
	type input struct {
		name string
		run  *report.Run
		err  error
	}
	read := make(chan input, 1)
	go func() {
		name, run, err := readInput(e, fs.Arg(0))
		read <- input{name, run, err}
	}()
	var in input
	select {
	case in = <-read:
	case <-ctx.Done():
		return stopped(ctx)
	}
	name, run, err := in.name, in.run, in.err
	if err != nil {
		return err
	}
	if *since != "" {
		old, err := readRun(inDir(e.Dir, *since))
		if err != nil {
			return failure("-since: %v", err)
		}
		run.Since = report.Compare(old, run)
	}
	for _, id := range unknownRules(run) {
		fmt.Fprintf(e.Stderr, "lockaudit render: warning: %s\n", report.Escape(fmt.Sprintf("%s: rule %s is not in this lockaudit's catalog (the run was written by %s %s); it is shown without its documentation",
			name, id, run.Tool.Name, run.Tool.Version)))
	}

	redacted := run.Redact(e.redactor())
	written, _, err := emitReports(ctx, e, plan, func(w io.Writer, format string, color bool) error {
		return render.RenderWith(w, redacted, format, render.Options{Color: color, PathPrefix: pathPrefix})
	})
	if err != nil {
		return err
	}
	summary := report.Summary(run)
	if len(written) > 0 {
		summary += "; report written to " + strings.Join(written, ", ")
	}
	fmt.Fprintf(e.Stderr, "lockaudit render: %s\n", report.Escape(summary))
	if *exitStatus {
		return exitWith(report.ExitCode(run))
	}
	return nil
}

// readInput reads the run from a file or stdin (report.ReadRun: within
// the saved-run limits). It refuses to wait on a terminal: someone who
// typed `lockaudit render` alone gets a usage error, not a hang.
func readInput(e *env, arg string) (name string, run *report.Run, err error) {
	var r io.Reader
	switch arg {
	case "", "-":
		name = "stdin"
		if f, ok := e.Stdin.(*os.File); ok {
			if isTerminal(f) {
				return "", nil, usageError("no input: give a JSON run file, or pipe one in (lockaudit audit -format json > run.json)")
			}
		}
		r = e.Stdin
	default:
		name = arg
		path := arg
		if !filepath.IsAbs(path) {
			path = filepath.Join(e.Dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return "", nil, failure("%v", err)
		}
		defer f.Close()
		r = f
	}
	run, err = report.ReadRun(r)
	if err != nil {
		return "", nil, failure("%s: %v", name, err)
	}
	return name, run, nil
}

// unknownRules lists the finding rules this lockaudit's catalog lacks.
func unknownRules(r *report.Run) []rules.ID {
	seen := map[rules.ID]bool{}
	var out []rules.ID
	for _, f := range r.Findings {
		if _, ok := rules.Get(f.Rule); !ok && !seen[f.Rule] {
			seen[f.Rule] = true
			out = append(out, f.Rule)
		}
	}
	return out
}

// isTerminal reports whether f is a terminal: a character device other
// than /dev/null (which reads as empty input).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}
