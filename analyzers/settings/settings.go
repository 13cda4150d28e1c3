// Package settings owns every analyzer option: the target server releases,
// the lock-key, fence-key and fence-column patterns, and the
// protected-resource writers. One *Settings value holds them for one run;
// nothing else in lockaudit keeps an option.
//
// Every source of options writes into that value: the config file (Apply
// with a .lockaudit.yaml from rules/config), lockaudit's own -target flag
// (Targets), go vet's -LAnnn.option flags and golangci-lint's plugin
// settings (through the flags the driver binds to the run's value, see
// Declare and FlagSet). Analyzers read it through the pass: they require
// Analyzer and call Of(pass). The analyzers themselves hold no option, so
// two runs in one process (tests that run the CLI in-process, a test with
// its own settings) cannot see each other's.
package settings

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// DefaultTarget is the server release checked when neither -target nor the
// config file names one.
const DefaultTarget = "valkey-9.0"

// Names of the options, as flags (-LA112.target) and as Set takes them.
const (
	OptTarget      = "target"
	OptLockKeys    = "lock-key-pattern"
	OptFenceKeys   = "fence-key-pattern"
	OptFenceColumn = "fence-column-pattern"
	OptWriters     = "writers"
)

// Settings are the analyzer options of one run. Each field is the
// flag.Value its flag sets; analyzers only read them, through the methods.
type Settings struct {
	target       *Target
	lockKeys     *Patterns
	fenceKeys    *Patterns
	fenceColumns *Patterns
	writers      *WriterList
}

// Default returns the defaults: target DefaultTarget, the default patterns,
// the default writers only.
func Default() *Settings {
	t := &Target{}
	if err := t.Set(DefaultTarget); err != nil {
		panic(err) // the default always parses
	}
	return &Settings{
		target:       t,
		lockKeys:     newPatterns("lock-key", DefaultLockKeys...),
		fenceKeys:    newPatterns("fence-key", DefaultFenceKeys...),
		fenceColumns: newPatterns("fence-column", DefaultFenceColumns...),
		writers:      &WriterList{},
	}
}

// value returns the flag.Value of an option.
func (s *Settings) value(name string) flag.Value {
	switch name {
	case OptTarget:
		return s.target
	case OptLockKeys:
		return s.lockKeys
	case OptFenceKeys:
		return s.fenceKeys
	case OptFenceColumn:
		return s.fenceColumns
	case OptWriters:
		return s.writers
	}
	return nil
}

// Set sets an option as its flag does (-LA112.target=valkey-8.1): a
// pattern's first Set replaces the defaults and later ones add to it,
// writers are added to the defaults, a target list replaces the target.
// A rejected value leaves the option as it was.
func (s *Settings) Set(name, value string) error {
	v := s.value(name)
	if v == nil {
		return fmt.Errorf("unknown option %q", name)
	}
	return v.Set(value)
}

// Get returns an option's value as its flag prints it.
func (s *Settings) Get(name string) string {
	if v := s.value(name); v != nil {
		return v.String()
	}
	return ""
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

// Apply sets the targets and the file's lock_keys, fence_keys,
// fence_columns (each replacing its default list) and writers (added to the
// defaults). f may be nil (targets only). skip names options the caller
// sets itself afterwards (go vet's explicit -LA103.lock-key-pattern ...):
// those are left as they are.
func (s *Settings) Apply(f *config.File, targets []string, skip ...string) error {
	if len(targets) > 0 && !slices.Contains(skip, OptTarget) {
		if err := s.target.Set(strings.Join(targets, ",")); err != nil {
			return fmt.Errorf("target: %v", err)
		}
	}
	if f == nil {
		return nil
	}
	for _, o := range []struct {
		opt, key string
		p        *Patterns
		list     []string
	}{
		{OptLockKeys, "lock_keys", s.lockKeys, f.LockKeys},
		{OptFenceKeys, "fence_keys", s.fenceKeys, f.FenceKeys},
		{OptFenceColumn, "fence_columns", s.fenceColumns, f.FenceColumns},
	} {
		if len(o.list) == 0 || slices.Contains(skip, o.opt) {
			continue
		}
		if err := o.p.SetList(o.list); err != nil {
			return fmt.Errorf("%s: %v", o.key, err)
		}
	}
	if len(f.Writers) > 0 && !slices.Contains(skip, OptWriters) {
		if err := s.writers.Add(f.Writers...); err != nil {
			return fmt.Errorf("writers: %v", err)
		}
	}
	return nil
}

// Supports reports whether every target has a feature.
func (s *Settings) Supports(f rules.Feature) bool { return s.target.supports(f) }

// Lacking says which targets lack feature, to follow "but ": "the target
// is valkey-8.0", "valkey-8.1 lacks it", "valkey-8.1 and redis-7.2 lack
// it"; "" when every target has it.
func (s *Settings) Lacking(feature rules.Feature) string {
	var miss []string
	for _, v := range s.target.vs {
		if !rules.Supports(v, feature) {
			miss = append(miss, v.Line())
		}
	}
	switch {
	case len(miss) == 0:
		return ""
	case len(s.target.vs) == 1:
		return "the target is " + miss[0]
	case len(miss) == 1:
		return miss[0] + " lacks it"
	}
	return strings.Join(miss, " and ") + " lack it"
}

// LockKey reports whether a lock-key pattern matches text, and which.
func (s *Settings) LockKey(text string) (string, bool) { return s.lockKeys.Match(text) }

// FenceKey reports whether a fence-key pattern matches text, and which.
func (s *Settings) FenceKey(text string) (string, bool) { return s.fenceKeys.Match(text) }

// FenceColumn reports whether an SQL column name holds the fence.
func (s *Settings) FenceColumn(name string) bool {
	_, ok := s.fenceColumns.Match(name)
	return ok
}

// Writer reports whether a fully qualified name (WriterName's form) is a
// default or configured protected-resource writer.
func (s *Settings) Writer(name string) bool { return s.writers.Has(name) }

// Target is the -target option: the server releases the code must run on,
// comma-separated (a fleet mid-upgrade runs several; a command is reported
// when any of them lacks it).
type Target struct {
	vs []rules.Version
	s  string
}

func (t *Target) String() string {
	if t == nil {
		return ""
	}
	return t.s
}

// Set parses one release line or a comma-separated list of them; an unknown
// one is an error naming the known lines, and leaves the target unchanged.
func (t *Target) Set(s string) error {
	vs, names, err := rules.ParseTargets(s)
	if err != nil {
		return err
	}
	t.vs, t.s = vs, strings.Join(names, ",")
	return nil
}

func (t *Target) supports(f rules.Feature) bool {
	for _, v := range t.vs {
		if !rules.Supports(v, f) {
			return false
		}
	}
	return len(t.vs) > 0
}
