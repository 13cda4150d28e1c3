package report

import "github.com/lockaudit/lockaudit/rules"

// ApplyRuleSettings applies a config file's rules: settings to the run's
// findings, code and node alike: a rule turned off loses its findings, an
// overridden severity replaces the catalog's. Verdicts and the evidence
// behind them are untouched, so turning off a node rule hides its
// explanation, never the unsafe or unknown answer it explains.
func (r *Run) ApplyRuleSettings(off map[string]bool, severity map[string]rules.Severity) {
	kept := r.Findings[:0]
	for _, f := range r.Findings {
		if off[string(f.Rule)] {
			continue
		}
		if s, ok := severity[string(f.Rule)]; ok {
			f.Severity = s
		}
		kept = append(kept, f)
	}
	r.Findings = kept
}
