// Package codehalf runs lockaudit's code half: the rules over the
// packages, with the Setup the config file and the command line make
// (analyzers.Configure), then the //lockaudit directives, the config's
// severities and node rules turned off, baselines, and which findings
// `lockaudit vet -fix` fixes. It returns the report.Run that vet renders
// and audit and preflight join with the fleet; cmd/lockaudit only parses
// flags, composes and writes.
package codehalf

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/uses"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/baseline"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// Options say what to analyse and how.
type Options struct {
	Dir      string   // absolute; the patterns are relative to it
	Patterns []string // go list patterns; none means ./...
	Tests    bool     // also analyse test files
	// Generated also reports findings in generated files (vet -generated).
	Generated bool
	Version   string // lockaudit's version, for Run.Tool

	Config *config.File     // nil when there is none
	Setup  *analyzers.Setup // the options and rules of this run (Configure)
	// Uses also runs analyzers/uses, so the Run lists the commands the
	// code relies on (audit, preflight).
	Uses bool
	// Fixes, when set, collects the findings' suggested fixes (vet -fix,
	// -diff); when nil they are collected here, to mark Finding.Autofix.
	Fixes *driver.Fixes

	// Record, when set (vet -write-baseline), is given the run's findings
	// as a baseline, which the run then applies under the name RecordName.
	// An incomplete run is not recorded (an error).
	Record     func(*baseline.File) error
	RecordName string
	// Baseline, when set, suppresses the findings it knows (external),
	// under the name BaselineName.
	Baseline     *baseline.File
	BaselineName string
}

// Run runs the code half and returns the Run with Command "vet",
// Tool.Version and Target set; the caller may change Command. Its error
// is for failures that leave nothing to report (the go command cannot
// run, a cancelled context, a baseline that cannot be recorded).
func Run(ctx context.Context, o Options) (*report.Run, error) {
	fixes := o.Fixes
	if fixes == nil {
		// Always collected: reports say which findings -fix fixes, counted
		// by the very plan -fix applies.
		fixes = driver.NewFixes()
	}
	code, err := driver.Run(ctx, driver.Options{
		Dir:               o.Dir,
		Patterns:          o.Patterns,
		Analyzers:         o.analyzers(),
		Settings:          o.Setup.Settings,
		Tests:             o.Tests,
		Generated:         o.Generated,
		Directives:        true,
		DirectiveFindings: o.Setup.Selected[string(directive.RuleID)],
		Fixes:             fixes,
	})
	if err != nil {
		return nil, err
	}
	run := report.New("vet", o.Version)
	run.SetCode(code)
	run.Target = strings.Join(o.Setup.Targets, ",")
	ApplyRuleSettings(run, o.Config)

	if o.Record != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(run.Errors) > 0 {
			return nil, fmt.Errorf("not writing the baseline %s: the run is incomplete (%s)", o.RecordName, report.Summary(run))
		}
		b := baseline.FromRun(run)
		if err := o.Record(b); err != nil {
			return nil, fmt.Errorf("writing the baseline: %v", err)
		}
		b.Apply(run, o.RecordName)
	}
	if o.Baseline != nil {
		o.Baseline.Apply(run, o.BaselineName)
	}
	markAutofix(run, fixes)
	return run, nil
}

// analyzers are the selected rules, plus analyzers/uses when Uses is set.
func (o Options) analyzers() []*analysis.Analyzer {
	as := analyzers.Selected(o.Setup.Selected)
	if o.Uses {
		as = append(as, uses.Analyzer)
	}
	return as
}

// ApplyRuleSettings applies the file's rules: key (nil file: nothing) to
// the run's findings: severities to every rule's, "off" to node rules'.
// A code rule turned off never ran (and -rules, which wins over the file,
// may have turned it back on), so its findings stay. The probe's commands
// apply it to their node findings too.
func ApplyRuleSettings(run *report.Run, f *config.File) {
	if f == nil {
		return
	}
	off, _, sev := f.Selection()
	disabled := map[string]bool{}
	for _, id := range off {
		if r, ok := rules.Lookup(id); ok && r.Kind == rules.Node {
			disabled[id] = true
		}
	}
	run.ApplyRuleSettings(disabled, sev)
}

// markAutofix marks the findings whose fix `lockaudit vet -fix` would
// apply now: the fixes Plan takes, as -fix itself plans them (a finding
// with alternative fixes, or whose fix conflicts with another's, is not
// marked).
func markAutofix(run *report.Run, fixes *driver.Fixes) {
	fixed := map[string]bool{}
	for _, f := range fixes.Plan(run.Findings).Fixed {
		fixed[string(f.Rule)+"|"+f.Pos.String()+"|"+f.Message] = true
	}
	for i := range run.Findings {
		f := &run.Findings[i]
		if f.Pos != nil && f.Suppressed == nil && fixed[string(f.Rule)+"|"+f.Pos.String()+"|"+f.Message] {
			f.Autofix = true
		}
	}
}
