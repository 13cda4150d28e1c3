package analyzers

import (
	"errors"
	"fmt"

	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// Setup is what a run of the rules takes from the config file and the
// command line: the analyzers' options and the code rules to run. It is
// made in one place (Configure) for lockaudit vet and audit, the go vet
// tool, the golangci-lint plugin and lockaudit config check.
type Setup struct {
	Settings *settings.Settings
	Targets  []string        // the resolved targets: the flag's, the file's, or the default
	Selected map[string]bool // the code rules to run (Select)
}

// Inputs are what the command line adds to the config file.
type Inputs struct {
	Target string // -target; "" means the file's target, else the default
	Rules  string // -rules spec (Select); "" means the file's selection
	// Keep names the options set on the command line (go vet's
	// -LAnnn.option flags), which the file must not override.
	Keep []string
	// Enabled are rules turned on by name on the command line (go vet's
	// -LA110), which the file must not turn off.
	Enabled map[string]bool
	// AllowNone accepts a selection without a code rule (go vet runs the
	// tool on each package; a package whose file turns every rule off is
	// analysed by none).
	AllowNone bool
}

// ConfigError is a mistake in the configuration, worded with where it is:
// "PATH: target: ..." for the file (PATH is the file's Path), "-target:
// ..." or "-rules ..." for a flag (Flag).
type ConfigError struct {
	Flag bool
	Err  error
}

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrNoCodeRule is why a selection without a code rule fails.
var ErrNoCodeRule = errors.New("every code rule is off")

// Configure makes the Setup of a run from the config file (nil: none) and
// the command line: the targets, the code rules to run, then the options
// (targets and the file's lock_keys, fence_keys, fence_columns, writers).
// Every error is a *ConfigError.
func Configure(f *config.File, in Inputs) (*Setup, error) {
	path := "config"
	if f != nil {
		path = f.Path
	}
	fileErr := func(format string, args ...any) error {
		return &ConfigError{Err: fmt.Errorf(path+": "+format, args...)}
	}
	targets, err := settings.Targets(f, in.Target)
	if err != nil {
		if in.Target != "" {
			return nil, &ConfigError{Flag: true, Err: fmt.Errorf("-target: %v", err)}
		}
		return nil, fileErr("target: %v", err)
	}
	sel, err := Select(f, in.Rules)
	if err != nil {
		return nil, &ConfigError{Flag: true, Err: fmt.Errorf("-rules: %v", err)}
	}
	for id := range in.Enabled {
		if r, ok := rules.Lookup(id); ok && r.Kind == rules.Code {
			sel[id] = true
		}
	}
	if len(Selected(sel)) == 0 && !in.AllowNone {
		if in.Rules != "" {
			return nil, &ConfigError{Flag: true, Err: fmt.Errorf("-rules %q selects no code rule (vet runs the LA1xx rules; LA2xx are probe rules)", in.Rules)}
		}
		return nil, fileErr("rules: %w", ErrNoCodeRule)
	}
	s := settings.Default()
	if err := s.Apply(f, targets, in.Keep...); err != nil {
		return nil, fileErr("%v", err)
	}
	return &Setup{Settings: s, Targets: targets, Selected: sel}, nil
}

// Off lists the code rules the setup does not run, for the drivers that
// run every analyzer and drop the diagnostics of rules turned off
// (driver.UnitOptions.Off).
func (s *Setup) Off() map[string]bool {
	off := map[string]bool{}
	for _, r := range rules.ByKind(rules.Code) {
		if !s.Selected[string(r.ID)] {
			off[string(r.ID)] = true
		}
	}
	return off
}
