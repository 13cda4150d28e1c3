package report

import "slices"

// Prepared returns a copy of the run with what every format shows of a
// finding and derives from the run: its ID (where it has none yet), its
// risk, and the owner and effort the engagement assigns it. The run
// itself is left alone; DecodeRun drops the derived fields, so render
// makes them again from the rest (an edited rating is never shown).
func (r *Run) Prepared() *Run {
	c := *r
	c.Findings = slices.Clone(r.Findings)
	withIDs(c.Findings)
	for i := range c.Findings {
		f := &c.Findings[i]
		risk := RiskOf(r, *f)
		f.Risk = &risk
		f.Owner, f.Effort = assigned(r.Engagement, *f)
	}
	if s := r.Since; s != nil {
		cs := *s
		cs.Findings = slices.Clone(s.Findings)
		fs := make([]Finding, len(cs.Findings))
		for i, fc := range cs.Findings {
			fs[i] = fc.Finding
		}
		withIDs(fs)
		for i := range cs.Findings {
			cs.Findings[i].Finding = fs[i]
		}
		c.Since = &cs
	}
	return &c
}

// dropDerived clears what prepared derives, for DecodeRun.
func (r *Run) dropDerived() {
	for i := range r.Findings {
		f := &r.Findings[i]
		f.Risk, f.Owner, f.Effort = nil, "", ""
	}
}
