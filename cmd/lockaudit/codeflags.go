package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/codehalf"
	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/baseline"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// codeFlags are the flags of lockaudit's code half — what `vet` runs, and
// what `audit` runs on the code — and the one method that runs it, so both
// commands read the config file, select rules, apply suppressions and
// baselines the same way.
//
// Use:
//
//	var c codeFlags
//	c.register(fs, true)          // before fs.Parse; true adds -write-baseline (vet)
//	... fs.Parse(args) ...
//	if err := c.load(e); err != nil { return err }  // -C, the config file (exit 2 on errors)
//	run, err := c.run(ctx, e, patterns)            // the analysed, suppressed, baselined Run
//	... render run with c.renderOptions(), exit with report.ExitCode(run) ...
//
// After load, c.Config is the loaded .lockaudit.yaml (nil when there is
// none), so probe/audit can read c.Config.Probe for their defaults.
type codeFlags struct {
	ConfigFlag     string // -config FILE; "" finds .lockaudit.yaml walking up from Dir
	Rules          string // -rules LIST; wins over the file's rules:
	Target         string // -target LIST; "" means the file's target:, else valkey-9.0
	Dir            string // -C DIR; after load, absolute (the working directory when not given)
	Tests          bool   // -tests
	Generated      bool   // -generated
	ShowSuppressed bool   // -show-suppressed (text output)
	Baseline       string // -baseline FILE
	WriteBaseline  string // -write-baseline FILE (vet only)
	PathPrefix     string // -path-prefix DIR; after load, clean and slash-separated

	// Uses (audit, preflight; not a flag) also runs analyzers/uses, so the
	// Run lists the commands the code relies on in Uses.
	Uses bool
	// Fixes (vet -fix/-diff; not a flag), when set, collects the findings'
	// suggested fixes.
	Fixes *driver.Fixes

	// Set by load.
	Config  *config.File // nil when no config file was found or given
	Targets []string     // resolved targets (flag, file, or the default)
	// TargetFrom is where Targets come from: report.TargetFromFlag,
	// TargetFromConfig or TargetFromDefault (deriveTarget may replace the
	// default with the fleet's).
	TargetFrom report.TargetSource
}

// register adds the code-half flags to fs. writeBaseline adds
// -write-baseline (vet has it; audit records its baseline through vet).
func (c *codeFlags) register(fs *flag.FlagSet, writeBaseline bool) {
	fs.StringVar(&c.ConfigFlag, "config", "", "read the configuration from `FILE` (default: the first "+config.FileName+" found walking up from the working directory)")
	fs.StringVar(&c.Rules, "rules", "", "rules to run: `LIST` of rule IDs, names and globs, e.g. LA101,LA103 or -LA110 or plain-del-release or LA1*,-LA115 (default all, minus those the config file turns off; the flag wins over the file)")
	fs.StringVar(&c.Target, "target", "", "the server `releases` the code must run on, comma-separated, from "+strings.Join(rules.KnownTargets(), ", ")+" (default: the config file's target, else "+settings.DefaultTarget+")")
	fs.StringVar(&c.Dir, "C", "", "change to `DIR` first, as go -C does: patterns, -o, -config and baseline files are relative to it")
	fs.BoolVar(&c.Tests, "tests", false, "also analyse test files")
	fs.BoolVar(&c.Generated, "generated", false, "also report findings in generated files (a \"// Code generated ... DO NOT EDIT.\" line), which are skipped by default")
	fs.BoolVar(&c.ShowSuppressed, "show-suppressed", false, "text output: also print suppressed findings, marked with their justification")
	fs.StringVar(&c.PathPrefix, "path-prefix", "", "put `DIR` in front of every source path in the reports: the module's folder in its repository (e.g. services/orders), so SARIF and annotations point at the repository's files (default: paths from the module root)")
	fs.StringVar(&c.Baseline, "baseline", "", "report only findings that are not in the baseline `FILE` (written by -write-baseline); known ones are kept as suppressed (external)")
	if writeBaseline {
		fs.StringVar(&c.WriteBaseline, "write-baseline", "", "record the current findings (those not suppressed in the source) in `FILE`; the run then reports them as baselined")
	}
}

// load resolves -C against the working directory, validates -target and
// -rules, and reads the config file. Every error is a usage error (exit 2):
// a config error names the file, the line and the key.
func (c *codeFlags) load(e *env) error {
	if c.Dir == "" {
		c.Dir = e.Dir
	} else if !filepath.IsAbs(c.Dir) {
		c.Dir = filepath.Join(e.Dir, c.Dir)
	}
	if fi, err := os.Stat(c.Dir); err != nil || !fi.IsDir() {
		return usageError("-C %s: not a directory", c.Dir)
	}
	f, err := loadConfig(c.Dir, c.ConfigFlag)
	if err != nil {
		return err
	}
	c.Config = f
	setup, err := c.setup(c.Target)
	if err != nil {
		return err
	}
	c.Targets = setup.Targets
	switch {
	case c.Target != "":
		c.TargetFrom = report.TargetFromFlag
	case c.Config != nil && len(c.Config.Targets) > 0:
		c.TargetFrom = report.TargetFromConfig
	default:
		c.TargetFrom = report.TargetFromDefault
	}
	prefix, err := report.CleanPathPrefix(c.PathPrefix)
	if err != nil {
		return usageError("-path-prefix: %v", err)
	}
	c.PathPrefix = prefix
	if c.WriteBaseline != "" {
		if err := outfile.Check(c.abs(c.WriteBaseline)); err != nil {
			return usageError("-write-baseline: %v", err)
		}
	}
	return nil
}

// deriveTarget judges the code at the fleet's own target (the lowest
// release line of each flavor among the nodes that can become primary)
// when neither -target nor the config file names one, and says which
// target the code is judged at and why (audit, preflight -inventory).
func (c *codeFlags) deriveTarget(t probe.Target) *report.TargetChoice {
	if c.TargetFrom == report.TargetFromDefault && len(t.Lines) > 0 {
		c.Targets, c.TargetFrom = t.Lines, report.TargetFromFleet
	}
	choice := &report.TargetChoice{Releases: append([]string(nil), c.Targets...), Source: c.TargetFrom}
	if c.TargetFrom == report.TargetFromFleet {
		for _, n := range t.Nodes {
			choice.Nodes = append(choice.Nodes, report.TargetNode{Addr: n.Addr, Server: string(n.Version.Flavor), Version: n.Version.Number()})
		}
	}
	if c.TargetFrom == report.TargetFromFleet || c.TargetFrom == report.TargetFromDefault {
		choice.Unknown = t.Unknown // why the fleet's own release is not (all) known
	}
	return choice
}

// applyRuleSettings applies the file's rules: key to a run's findings
// (codehalf.ApplyRuleSettings): the probe's commands call it too.
var applyRuleSettings = codehalf.ApplyRuleSettings

// loadConfig reads the config file named by a -config value (relative to
// dir), or the first one found walking up from dir; nil when there is none.
// Errors are usage errors (exit 2) naming the file, the line and the key,
// every mistake in the file at once. probe, which has no code half, reads
// its defaults through it too.
func loadConfig(dir, flagPath string) (*config.File, error) {
	path := flagPath
	if path != "" {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
	} else {
		p, err := config.Find(dir)
		if err != nil {
			return nil, usageError("looking for %s: %v", config.FileName, err)
		}
		path = p
	}
	if path == "" {
		return nil, nil
	}
	f, err := config.Load(path)
	if err != nil {
		return nil, usageError("%s", configErrors(err))
	}
	return f, nil
}

// abs makes a path given on the command line relative to -C.
func (c *codeFlags) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// setup makes the run's analyzer settings and rule selection from the
// config file, -rules and target (the -target flag at load; the resolved,
// perhaps fleet-derived, targets at run). Errors are usage errors (exit 2).
func (c *codeFlags) setup(target string) (*analyzers.Setup, error) {
	setup, err := analyzers.Configure(c.Config, analyzers.Inputs{Target: target, Rules: c.Rules})
	if err != nil {
		var ce *analyzers.ConfigError
		if errors.As(err, &ce) && ce.Flag {
			return nil, usageError("%v", err)
		}
		return nil, usageError("config: %v", err)
	}
	return setup, nil
}

// run runs the code half on patterns (default ./...) with a Setup made for
// this run (nothing is shared with another run in this process), and
// -write-baseline and -baseline (codehalf.Run). It returns the Run with
// Command "vet", Tool.Version and Target set; the caller may change
// Command. A failure that leaves nothing to report is returned as an
// exit-1 error; bad baseline files are usage errors (exit 2).
func (c *codeFlags) run(ctx context.Context, e *env, patterns []string) (*report.Run, error) {
	setup, err := c.setup(strings.Join(c.Targets, ","))
	if err != nil {
		return nil, err
	}
	o := codehalf.Options{Dir: c.Dir, Patterns: patterns, Tests: c.Tests, Version: version(),
		Generated: c.Generated, Config: c.Config, Setup: setup, Uses: c.Uses, Fixes: c.Fixes}
	if c.Baseline != "" {
		if o.Baseline, err = baseline.Load(c.abs(c.Baseline)); err != nil {
			return nil, usageError("-baseline: %v", err)
		}
		o.BaselineName = c.Baseline
	}
	if c.WriteBaseline != "" {
		o.RecordName = c.WriteBaseline
		o.Record = func(b *baseline.File) error {
			var buf bytes.Buffer
			if err := b.Write(&buf); err != nil {
				return err
			}
			if err := outfile.Write(c.abs(c.WriteBaseline), buf.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "lockaudit vet: baseline of %s written to %s\n", report.Plural(len(b.Findings), "finding"), report.Escape(c.WriteBaseline))
			return nil
		}
	}
	run, err := codehalf.Run(ctx, o)
	if err := stopped(ctx); err != nil {
		return nil, err // go list and the analysis were interrupted
	}
	if err != nil {
		return nil, failure("%v", err)
	}
	hintModule(run, c.Dir)
	return run, nil
}

// hintModule adds to the go command's module errors what to do when dir
// is in no Go module at all: "directory prefix . does not contain main
// module" says nothing to someone who ran lockaudit in the wrong folder.
func hintModule(run *report.Run, dir string) {
	if len(run.Errors) == 0 || inModule(dir) {
		return
	}
	for i, er := range run.Errors {
		if strings.Contains(er.Message, "main module") || strings.Contains(er.Message, "go.mod file not found") {
			run.Errors[i].Message += fmt.Sprintf(" (no go.mod in %s or any folder above it: run lockaudit in your module's folder, where go.mod is, or give -C DIR)", dir)
		}
	}
}

// inModule reports whether dir or a folder above it holds a go.mod or a
// go.work.
func inModule(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		for _, f := range []string{"go.mod", "go.work"} {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				return true
			}
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// renderOptions are the renderers' options the flags ask for:
// -show-suppressed (text output) and -path-prefix. Exit codes and
// summaries are always the run's.
func (c *codeFlags) renderOptions() render.Options {
	return render.Options{ShowSuppressed: c.ShowSuppressed, PathPrefix: c.PathPrefix}
}
