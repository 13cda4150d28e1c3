package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// defaultTarget is the server release vet checks commands against (LA112).
const defaultTarget = "valkey-9.0"

func init() {
	register(&command{
		Name:  "vet",
		Usage: "vet [-format text|json|sarif] [-o FILE] [-target valkey-9.0] [-rules LA101,-LA110] [-C DIR] [-tests] [packages]",
		Summary: `Analyse Go packages (default ./...) for lock code that breaks on Valkey 9 or in a failover.

Text output is one finding per line, file:line:col: RULE message, and a
one-line summary on stderr. Exit status: 0 no findings, 1 the analysis
could not complete (a package did not load or compile, a pattern matched
nothing: the errors are shown, and the packages that did load are still
analysed), 2 usage error, 3 findings.`,
		Run: runVet,
	})
}

// vetOptions are vet's parsed flags.
type vetOptions struct {
	format, out, target, rules, dir string
	tests                           bool
	patterns                        []string
}

func parseVetFlags(e *env, args []string) (*vetOptions, error) {
	o := &vetOptions{}
	fs := flag.NewFlagSet("vet", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.StringVar(&o.format, "format", "", "output `format`: "+strings.Join(report.Formats(), ", ")+" (default text, or from -o's extension)")
	fs.StringVar(&o.out, "o", "", "write the report to `FILE` instead of stdout")
	fs.StringVar(&o.target, "target", defaultTarget, "the oldest server `release` the code must run on, one of "+strings.Join(rules.KnownTargets(), ", "))
	fs.StringVar(&o.rules, "rules", "", "rules to run: `LIST` of IDs and globs, e.g. LA101,LA103 or -LA110 or LA1*,-LA115 (default all)")
	fs.StringVar(&o.dir, "C", "", "change to `DIR` first, as go -C does: patterns and -o are relative to it")
	fs.BoolVar(&o.tests, "tests", false, "also analyse test files")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: lockaudit %s\n\n", commands["vet"].Usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil // -h: flag printed the usage
		}
		return nil, exitWith(report.ExitUsage) // flag has printed the error and the usage
	}
	o.patterns = fs.Args()
	for _, p := range o.patterns {
		if strings.HasPrefix(p, "-") {
			return nil, usageError("flag %s after the package patterns: flags go first", p)
		}
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
	if !contains(report.Formats(), o.format) {
		return nil, usageError("unknown -format %q (want %s)", o.format, strings.Join(report.Formats(), ", "))
	}
	if _, err := rules.ParseTarget(o.target); err != nil {
		return nil, usageError("-target: %v", err)
	}
	o.target = strings.ToLower(strings.TrimSpace(o.target))
	if o.dir != "" && !filepath.IsAbs(o.dir) {
		o.dir = filepath.Join(e.Dir, o.dir)
	}
	if o.dir == "" {
		o.dir = e.Dir
	}
	return o, nil
}

func runVet(ctx context.Context, e *env, args []string) error {
	o, err := parseVetFlags(e, args)
	if o == nil || err != nil {
		return err
	}
	as, err := selectAnalyzers(o.rules, o.target)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(o.dir); err != nil || !fi.IsDir() {
		return usageError("-C %s: not a directory", o.dir)
	}
	run, err := driver.Run(ctx, driver.Options{Dir: o.dir, Patterns: o.patterns, Analyzers: as, Tests: o.tests})
	if err != nil {
		return failure("%v", err)
	}
	run.Command = "vet"
	run.Tool.Version = version()
	run.Target = o.target
	return emit(e, "vet", run, o.format, o.out, o.dir)
}

// emit renders the run to -o (relative to dir, as -C applies to every
// path) or stdout, prints the run's errors (packages that did not load) on
// stderr unless the text report on stdout already shows them, then a
// one-line summary on stderr, and ends with the run's exit code.
func emit(e *env, name string, run *report.Run, format, out, dir string) error {
	var buf bytes.Buffer
	if err := report.Render(&buf, run, format); err != nil {
		return failure("rendering %s: %v", format, err)
	}
	var w io.Writer = e.Stdout
	if out != "" {
		if !filepath.IsAbs(out) {
			out = filepath.Join(dir, out)
		}
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			return failure("%v", err)
		}
	} else if _, err := w.Write(buf.Bytes()); err != nil {
		return failure("writing the report: %v", err)
	}
	if len(run.Errors) > 0 && (format != "text" || out != "") {
		where := ""
		for _, er := range run.Errors {
			if er.Where != where {
				fmt.Fprintf(e.Stderr, "# %s\n", er.Where)
				where = er.Where
			}
			fmt.Fprintln(e.Stderr, er.Message)
		}
	}
	summary := report.Summary(run)
	if out != "" {
		summary += "; report written to " + out
	}
	fmt.Fprintf(e.Stderr, "lockaudit %s: %s\n", name, summary)
	return exitWith(report.ExitCode(run))
}

// selectAnalyzers returns the rule analyzers the -rules spec selects, with
// their -target option set. Node rules in the selection are ignored (vet
// reads code only); a selection with no code rule is a usage error.
func selectAnalyzers(spec, target string) ([]*analysis.Analyzer, error) {
	sel, err := rules.Select(spec)
	if err != nil {
		return nil, usageError("-rules: %v", err)
	}
	code := 0
	for id := range sel {
		if r, _ := rules.Lookup(id); r.Kind == rules.Code {
			code++
		}
	}
	if code == 0 {
		return nil, usageError("-rules %q selects no code rule (vet runs the LA1xx rules; LA2xx are probe rules)", spec)
	}
	var out []*analysis.Analyzer
	for _, a := range analyzers.All() {
		if !sel[a.Name] {
			continue
		}
		if f := a.Flags.Lookup(targetFlag); f != nil {
			if err := a.Flags.Set(targetFlag, target); err != nil {
				return nil, usageError("-target: %v", err)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// targetFlag is the analyzer flag that takes -target (LA112's).
const targetFlag = "target"

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
