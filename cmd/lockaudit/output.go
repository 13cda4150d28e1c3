package main

// The output plumbing every report-writing command shares: which reports
// go where and in which format (-o, -format, -json), how they are coloured
// (-color) and which findings fail the run (-fail-on, -exit-zero).
//
// A command adopts all of it in four steps (drill, or any new command that
// ends in a report.Run):
//
//	var rf reportFlags
//	var exitZero bool
//	rf.register(fs)                    // -format, -json, -o (repeatable), -color, -fail-on
//	registerExitZero(fs, &exitZero)    // -exit-zero
//	... parseFlags ...
//	plan, err := rf.plan(dir)          // before any work: every -o checked (exit 2)
//	prog := newProgress(e, "drill", plan)
//	... build the run ...
//	return writeReports(ctx, e, "drill", run, plan, render.Options{}, exitZero)
//
// writeReports renders every report first, writes them all or none,
// prints the summary line and exits with the run's status under its gate.
// A command whose status is not a run's (diff, render) registers only the
// outputs (rf.registerOutputs) and writes with emitReports.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// outputs collects repeated -o flags.
type outputs []string

func (o *outputs) String() string     { return strings.Join(*o, ",") }
func (o *outputs) Set(s string) error { *o = append(*o, s); return nil }

// dest is where a report goes.
type dest int

const (
	toFile    dest = iota // a regular file, replaced atomically
	toStdout              // -o -, -o /dev/stdout
	toStderr              // -o /dev/stderr
	toDiscard             // -o /dev/null: rendered, then dropped
)

// outTarget is one report to write: a path (absolute for a file, as
// given otherwise), its format and where it goes.
type outTarget struct {
	path, format string
	dest         dest
}

// outPlan is every report a command writes and how: decided from the
// flags before any work, so a bad -o or format fails at once (exit 2).
type outPlan struct {
	targets []outTarget
	color   string // -color: auto, always or never
	failOn  string // -fail-on; "" is the default gate
}

// reportFlags are the output flags of every command that writes reports.
type reportFlags struct {
	format string
	json   bool
	outs   outputs
	color  string
	failOn string
	// check: plan checks each -o path now (exit 2); render, which is
	// quick, finds a bad one when writing (exit 1).
	noCheck bool
}

// register adds the output flags and -fail-on (commands whose exit status
// is their run's: vet, audit, preflight, probe, scan, conform).
func (r *reportFlags) register(fs *flag.FlagSet) {
	r.registerOutputs(fs)
	fs.StringVar(&r.failOn, "fail-on", "", "the lowest `severity` of a finding that fails the run (exit 3): error, warning or info (default: a code warning or error, or a node error); an unsafe or unknown verdict fails whatever it says")
}

// registerOutputs adds -format, -json, -o and -color.
func (r *reportFlags) registerOutputs(fs *flag.FlagSet) {
	fs.StringVar(&r.format, "format", "", "output `format`: "+strings.Join(render.Formats(), ", ")+" (default: text on stdout, and each -o file in the format of its extension)")
	fs.BoolVar(&r.json, "json", false, "short for -format json")
	fs.Var(&r.outs, "o", "write a report to `FILE`, in the format of its extension (.json, .sarif, .md, .html, .txt); repeatable, all written or none; \"-\" or /dev/stdout is stdout, /dev/null discards")
	fs.StringVar(&r.color, "color", "auto", "colour the text report: `auto` (when stdout is a terminal and NO_COLOR is not set), always or never")
}

// plan resolves the outputs against dir (-C applies to -o).
func (r *reportFlags) plan(dir string) (*outPlan, error) {
	format := r.format
	if r.json {
		if format != "" && format != "json" {
			return nil, usageError("-json and -format %s disagree: -json is -format json", format)
		}
		format = "json"
	}
	switch r.color {
	case "auto", "always", "never":
	default:
		return nil, usageError("unknown -color %q (want auto, always or never)", r.color)
	}
	if err := report.CheckFailOn(r.failOn); err != nil {
		return nil, usageError("-fail-on: %v", err)
	}
	p, err := planOutputs(format, r.outs, dir, !r.noCheck)
	if err != nil {
		return nil, err
	}
	p.color, p.failOn = r.color, r.failOn
	return p, nil
}

// extensionFormats are the formats a file's extension allows with
// -format: its own, and SARIF (which is JSON) in a .json file.
var extensionFormats = map[string][]string{"json": {"json", "sarif"}}

// planOutputs decides, before anything runs, what each -o gets: its
// extension's format, or -format for a file without a known extension and
// for stdout; no -o is one report on stdout (text, or -format). A -format
// that contradicts a file's extension is refused (no text in an .html
// file). Relative paths are taken from dir. With check, each file's path
// is checked now (outfile.Check), so a bad -o fails before the long work.
func planOutputs(format string, outs outputs, dir string, check bool) (*outPlan, error) {
	if format != "" {
		if err := checkFormat(format); err != nil {
			return nil, err
		}
	}
	p := &outPlan{color: "auto"}
	named := map[string]string{} // a destination -> the -o that named it
	for _, o := range outs {
		t, err := outputTarget(o, format, dir)
		if err != nil {
			return nil, err
		}
		key := t.path
		switch t.dest {
		case toStdout:
			key = "stdout"
		case toStderr:
			key = "stderr"
		case toDiscard:
			key = ""
		}
		if prev, dup := named[key]; dup && key != "" {
			return nil, usageError("-o %s: %s is already named by -o %s", o, key, prev)
		}
		named[key] = o
		if check && t.dest == toFile {
			if err := outfile.Check(t.path); err != nil {
				return nil, usageError("-o: %v (-o - writes to stdout)", err)
			}
		}
		p.targets = append(p.targets, t)
	}
	if len(p.targets) == 0 {
		f := format
		if f == "" {
			f = "text"
		}
		p.targets = append(p.targets, outTarget{"-", f, toStdout})
	}
	return p, nil
}

// outputTarget resolves one -o value: "-", /dev/stdout and /dev/fd/1 are
// stdout, /dev/stderr and /dev/fd/2 stderr, the null device (or a link to
// it) discards; anything else is a file, relative to dir.
func outputTarget(o, format, dir string) (outTarget, error) {
	if o == "-" {
		return outTarget{"-", cmpOr(format, "text"), toStdout}, nil
	}
	path := inDir(dir, o)
	d := toFile
	switch filepath.Clean(path) {
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		d = toStdout
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		d = toStderr
	default:
		if isNullDevice(path) {
			d = toDiscard
		}
	}
	ext, extErr := render.FormatFromPath(o)
	f := format
	switch {
	case f == "" && extErr == nil:
		f = ext
	case f == "" && d != toFile:
		f = "text"
	case f == "":
		return outTarget{}, usageError("-o: %v", extErr)
	case extErr == nil && f != ext && !slices.Contains(extensionFormats[ext], f):
		return outTarget{}, usageError("-o %s: the extension says %s, but -format says %s: drop -format (each -o gets its extension's format) or rename the file", o, ext, f)
	}
	return outTarget{path, f, d}, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// isNullDevice reports whether path is the null device, or a link to it.
func isNullDevice(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}

// checkFormat refuses a -format no renderer writes (exit 2).
func checkFormat(format string) error {
	if !slices.Contains(render.Formats(), format) {
		return usageError("unknown -format %q (want %s)", format, strings.Join(render.Formats(), ", "))
	}
	return nil
}

// stdoutFormats lists the formats a plan writes to stdout.
func stdoutFormats(plan *outPlan) []string {
	var out []string
	for _, t := range plan.targets {
		if t.dest == toStdout {
			out = append(out, t.format)
		}
	}
	return out
}

// colorFor decides whether a text report written to w is coloured:
// -color always, or auto when w is a terminal, NO_COLOR is unset or empty
// (no-color.org) and TERM is not "dumb".
func colorFor(e *env, mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if e.Getenv("NO_COLOR") != "" || e.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// writeReports sets the run's gate (-fail-on), renders it in every planned
// format first (so a rendering failure writes nothing), writes the files
// all or none and stdout, prints the errors of an incomplete run on stderr
// unless a text report on stdout shows them, then a one-line summary with
// the verdict, and ends with report.ExitCode — the same status whatever
// the formats (runExit: -exit-zero). opts are the renderers'
// (-show-suppressed). Every report is rendered with the passwords redacted
// (env.redactor).
func writeReports(ctx context.Context, e *env, name string, run *report.Run, plan *outPlan, opts render.Options, exitZero bool) error {
	run.FailOn = plan.failOn
	redacted := run.Redact(e.redactor())
	renderTo := func(w io.Writer, format string, color bool) error {
		o := opts
		o.Color = color
		return render.RenderWith(w, redacted, format, o)
	}
	written, textOnStdout, err := emitReports(ctx, e, plan, renderTo)
	if err != nil {
		return err
	}
	if !textOnStdout {
		if name == "vet" {
			render.WriteErrors(e.Stderr, run.Errors) // go vet's "# package" form, as vet's text report has them
		} else {
			for _, er := range run.Errors {
				fmt.Fprintf(e.Stderr, "lockaudit %s: %s: %s\n", name, report.Escape(er.Where), report.EscapeLines(er.Message))
			}
		}
	}
	fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", name, summaryLine(run, written))
	return runExit(run, exitZero)
}

// emitReports renders every planned report with render, then writes them:
// the files all or none (outfile.WriteAll), then stdout and stderr. It
// returns the files written (relative to the working directory when below
// it) and whether a text report went to stdout.
func emitReports(ctx context.Context, e *env, plan *outPlan, render func(w io.Writer, format string, color bool) error) (written []string, textOnStdout bool, err error) {
	rendered := make([][]byte, len(plan.targets))
	for i, t := range plan.targets {
		var w io.Writer
		switch t.dest {
		case toStdout:
			w = e.Stdout
		case toStderr:
			w = e.Stderr
		}
		var buf bytes.Buffer
		if err := render(&buf, t.format, t.format == "text" && w != nil && colorFor(e, plan.color, w)); err != nil {
			return nil, false, failure("rendering %s: %v", t.format, err)
		}
		rendered[i] = buf.Bytes()
	}
	// The last moment an interruption stops the run: after it every
	// report is written, so there is never a mix of old and new ones.
	if err := stopped(ctx); err != nil {
		return nil, false, err
	}
	var files []outfile.File
	for i, t := range plan.targets {
		if t.dest == toFile {
			files = append(files, outfile.File{Path: t.path, Data: rendered[i]})
		}
	}
	if err := outfile.WriteAll(files); err != nil {
		return nil, false, failure("%v (no report written)", err)
	}
	for _, f := range files {
		rel, err := filepath.Rel(e.Dir, f.Path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f.Path
		}
		written = append(written, rel)
	}
	for i, t := range plan.targets {
		var w io.Writer
		switch t.dest {
		case toStdout:
			w = e.Stdout
			textOnStdout = textOnStdout || t.format == "text"
		case toStderr:
			w = e.Stderr
		default:
			continue
		}
		if _, err := w.Write(rendered[i]); err != nil {
			return nil, false, failure("writing the report: %v", err)
		}
	}
	return written, textOnStdout, nil
}

// summaryLine is the one line on stderr: the verdict (when there is one),
// the findings, and where the reports went.
func summaryLine(run *report.Run, written []string) string {
	s := report.Summary(run)
	if v := run.Verdict; v != nil {
		s = v.Summary() + "; " + s
	}
	if len(written) > 0 {
		s += "; report written to " + strings.Join(written, ", ")
	}
	return report.Escape(s)
}

// registerExitZero adds -exit-zero (vet, audit, probe, preflight, scan,
// conform).
func registerExitZero(fs *flag.FlagSet, p *bool) {
	fs.BoolVar(p, "exit-zero", false, "exit 0 even when the run reports findings or an unsafe verdict (3), e.g. to upload a report without failing the job; an incomplete run (1), a usage error (2) and unknown evidence (4) still fail")
}

// runExit ends a command with its run's exit status: report.ExitCode
// (under the run's -fail-on gate), except that with -exit-zero findings
// and unsafe verdicts (3) exit 0. Unknown is never turned into a pass,
// nor is an incomplete run.
func runExit(run *report.Run, exitZero bool) error {
	code := report.ExitCode(run)
	if exitZero && code == report.ExitFindings {
		code = 0
	}
	return exitWith(code)
}
