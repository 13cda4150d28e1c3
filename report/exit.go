package report

import (
	"fmt"

	"github.com/lockaudit/lockaudit/rules"
)

// Exit codes, documented in docs/ci.md. Every output format of a run gives
// the same code because it is computed here, from the model.
const (
	ExitOK       = 0 // no findings; every verdict the code relies on is safe
	ExitFailed   = 1 // the run could not complete (packages did not load, no node reachable)
	ExitUsage    = 2 // bad flags or arguments
	ExitFindings = 3 // findings, or a verdict the code relies on is unsafe
	ExitUnknown  = 4 // evidence missing: a verdict the code relies on is unknown
)

// FailOn values (Run.FailOn, -fail-on): the lowest severity of an active
// finding that fails a run. "" is the default: a code finding of warning
// or error severity, a node finding of error severity.
const (
	FailOnDefault = ""
	FailOnError   = "error"
	FailOnWarning = "warning"
	FailOnInfo    = "info"
)

// FailOnValues are the values -fail-on takes.
var FailOnValues = []string{FailOnError, FailOnWarning, FailOnInfo}

// CheckFailOn refuses a -fail-on value that is not error, warning or info.
func CheckFailOn(s string) error {
	switch s {
	case FailOnDefault, FailOnError, FailOnWarning, FailOnInfo:
		return nil
	}
	return fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Fails reports whether an active finding fails a run under its gate
// (Run.FailOn).
func (r *Run) Fails(f Finding) bool {
	switch r.FailOn {
	case FailOnError:
		return f.Severity >= rules.Error
	case FailOnWarning:
		return f.Severity >= rules.Warning
	case FailOnInfo:
		return f.Severity >= rules.Info
	}
	return f.Severity == rules.Error || (f.Pos != nil && f.Severity == rules.Warning)
}

// ExitCode decides a run's exit status. An incomplete run fails (1) even
// when it also has findings, because a clean-looking partial result must not
// pass CI. Then: an active finding the run's gate fails (Fails: by default
// a code finding of warning or error severity or an error-severity node
// finding; -fail-on error|warning|info sets the lowest severity instead),
// or an unsafe/missing verdict the code relies on, gives 3; an unknown
// verdict the code relies on gives 4. By default info findings (node
// advice, or a code rule a team lowered to info in .lockaudit.yaml) are
// reported but never fail a run. No gate turns an unsafe or unknown
// verdict, or an incomplete run, into a pass.
func ExitCode(r *Run) int {
	if len(r.Errors) > 0 {
		return ExitFailed
	}
	code := ExitOK
	for _, f := range r.Active() {
		if r.Fails(f) {
			return ExitFindings
		}
	}
	if r.incomplete() { // a shard not scanned, a node not tested
		code = ExitUnknown
	}
	if v := r.Verdict; v != nil {
		for _, u := range r.Uses {
			switch v.For(u.Command) {
			case No:
				return ExitFindings
			case Unknown:
				code = ExitUnknown
			}
		}
	}
	return code
}
