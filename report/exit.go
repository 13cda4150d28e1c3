package report

import "github.com/lockaudit/lockaudit/rules"

// Exit codes, documented in docs/ci.md. Every output format of a run gives
// the same code because it is computed here, from the model.
const (
	ExitOK       = 0 // no findings; every verdict the code relies on is safe
	ExitFailed   = 1 // the run could not complete (packages did not load, no node reachable)
	ExitUsage    = 2 // bad flags or arguments
	ExitFindings = 3 // findings, or a verdict the code relies on is unsafe
	ExitUnknown  = 4 // evidence missing: a verdict the code relies on is unknown
)

// ExitCode decides a run's exit status. An incomplete run fails (1) even
// when it also has findings, because a clean-looking partial result must not
// pass CI. Then: an active code finding of warning or error severity, an
// error-severity node finding, or an unsafe/missing verdict the code relies
// on, gives 3; an unknown verdict the code relies on gives 4. Info findings
// (node advice, or a code rule a team lowered to info in .lockaudit.yaml)
// are reported but never fail a run.
func ExitCode(r *Run) int {
	if len(r.Errors) > 0 {
		return ExitFailed
	}
	code := ExitOK
	for _, f := range r.Active() {
		if f.Severity == rules.Error || (f.Pos != nil && f.Severity == rules.Warning) {
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
