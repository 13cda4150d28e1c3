// Package settings applies a .lockaudit.yaml (rules/config.File) to the
// analyzers: which rules run, their severities, LA112's targets, the
// lock-key / fence patterns and the protected-resource writers. It is the
// one place that does so, shared by `lockaudit vet`/`audit`, the go vet
// tool mode and the golangci-lint plugin, so a setting means the same thing
// everywhere.
//
// The analyzers' settings are package-level values (they are analyzer
// flags, as go/analysis wants). Apply therefore first resets every one of
// them to its default: applying twice in one process (tests that run the
// CLI in-process) never leaks the first run's settings into the second.
package settings

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/la112"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// DefaultTarget is the server release checked when neither -target nor the
// config file names one.
const DefaultTarget = la112.DefaultTarget

// Names of the analyzer options (flags) a config key sets.
const (
	OptTarget      = "target"
	OptLockKeys    = "lock-key-pattern"
	OptFenceKeys   = "fence-key-pattern"
	OptFenceColumn = "fence-column-pattern"
	OptWriters     = "writers"
)

// Reset restores every analyzer setting to its default.
func Reset() {
	flow.LockKeys.Reset()
	flow.FenceKeys.Reset()
	flow.FenceColumns.Reset()
	flow.Writers.Reset()
	if err := la112.Analyzer.Flags.Set(OptTarget, DefaultTarget); err != nil {
		panic(err) // the default always parses
	}
}

// Targets returns the server releases to check: the -target flag's
// comma-separated list when given, else the file's target list, else
// DefaultTarget. Each is validated; the result is lower-case.
func Targets(f *config.File, flagValue string) ([]string, error) {
	var list []string
	switch {
	case strings.TrimSpace(flagValue) != "":
		list = []string{flagValue}
	case f != nil && len(f.Targets) > 0:
		list = f.Targets
	default:
		list = []string{DefaultTarget}
	}
	_, names, err := rules.ParseTargets(list...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range names {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Apply resets every analyzer setting, then sets LA112's targets and the
// file's lock_keys, fence_keys, fence_columns (each replacing its default
// list) and writers (added to the defaults). f may be nil (defaults only).
// skip names options the caller sets itself afterwards (the go vet tool's
// explicit -LA103.lock-key-pattern ...): those are left at their defaults.
func Apply(f *config.File, targets []string, skip ...string) error {
	Reset()
	skipped := map[string]bool{}
	for _, s := range skip {
		skipped[s] = true
	}
	if len(targets) > 0 && !skipped[OptTarget] {
		if err := la112.Analyzer.Flags.Set(OptTarget, strings.Join(targets, ",")); err != nil {
			return fmt.Errorf("target: %v", err)
		}
	}
	if f == nil {
		return nil
	}
	for _, s := range []struct {
		opt, key string
		p        *flow.Patterns
		list     []string
	}{
		{OptLockKeys, "lock_keys", flow.LockKeys, f.LockKeys},
		{OptFenceKeys, "fence_keys", flow.FenceKeys, f.FenceKeys},
		{OptFenceColumn, "fence_columns", flow.FenceColumns, f.FenceColumns},
	} {
		if len(s.list) == 0 || skipped[s.opt] {
			continue
		}
		if err := s.p.SetList(s.list); err != nil {
			return fmt.Errorf("%s: %v", s.key, err)
		}
	}
	if len(f.Writers) > 0 && !skipped[OptWriters] {
		if err := flow.Writers.Add(f.Writers...); err != nil {
			return fmt.Errorf("writers: %v", err)
		}
	}
	return nil
}

// Select returns the code rules to run (LA100, the directive rule,
// included): every code rule, minus those the file turns off, then the
// -rules spec on top. A spec that starts with a rule or glob ("LA101,LA103",
// "LA1*") is the whole selection, whatever the file says; a spec that starts
// with an exclusion ("-LA110", "-LA110,LA111") edits the file's selection,
// item by item. So the flag always wins over the file. LA100 stays on
// unless the file or the spec turns it off by name ("-LA100"): it judges
// the directives of whichever rules run.
func Select(f *config.File, spec string) (map[string]bool, error) {
	sel := map[string]bool{}
	for _, r := range rules.ByKind(rules.Code) {
		sel[r.ID] = true
	}
	if f != nil {
		off, _, _ := f.Selection()
		for _, id := range off {
			delete(sel, id)
		}
	}
	items := strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' })
	if len(items) > 0 && !strings.HasPrefix(items[0], "-") {
		// LA100 judges the directives themselves, whichever rules run: a
		// list of rules keeps it unless it is turned off by name.
		sel = map[string]bool{directive.RuleID: sel[directive.RuleID]}
	}
	for _, it := range items {
		neg := strings.HasPrefix(it, "-")
		// One item alone, made positive, is exactly the rules it names.
		matched, err := rules.Select(strings.TrimPrefix(strings.TrimPrefix(it, "-"), "+"))
		if err != nil {
			return nil, err
		}
		for id := range matched {
			if r, _ := rules.Lookup(id); r.Kind != rules.Code {
				continue
			}
			if neg {
				delete(sel, id)
			} else {
				sel[id] = true
			}
		}
	}
	return sel, nil
}

// Analyzers returns the rule analyzers in sel, in ID order.
func Analyzers(sel map[string]bool) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range analyzers.All() {
		if sel[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

// Severities returns the file's severity overrides by rule ID (nil file:
// none).
func Severities(f *config.File) map[string]rules.Severity {
	if f == nil {
		return nil
	}
	_, _, sev := f.Selection()
	return sev
}

// ApplySeverities sets the severity of every finding of an overridden rule.
func ApplySeverities(fs []report.Finding, sev map[string]rules.Severity) {
	for i := range fs {
		if s, ok := sev[fs[i].Rule]; ok {
			fs[i].Severity = s
		}
	}
}

// IDs returns the selection's IDs, sorted.
func IDs(sel map[string]bool) []string {
	var out []string
	for id, on := range sel {
		if on {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
