package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// signOff is the block a consultant and a reviewer sign: who prepared
// the report (the engagement's author), who reviewed it, its date and
// its version. What the engagement does not say is left blank to fill in
// by hand.
type signOff struct {
	PreparedBy, ReviewedBy, Date, Version string
}

func signOffOf(r *report.Run) signOff {
	s := signOff{Date: humanTime(r.Time)}
	if en := r.Engagement; en != nil {
		s.PreparedBy, s.ReviewedBy, s.Version = en.Author, en.Reviewer, en.Version
	}
	return s
}

// register is the active findings as a client tracks them: by risk, the
// worst first, then by ID.
func register(r *report.Run) []report.Finding {
	fs := r.Active()
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if ra, rb := riskRank(a), riskRank(b); ra != rb {
			return ra < rb
		}
		return a.ID < b.ID
	})
	return fs
}

func riskRank(f report.Finding) int {
	if f.Risk == nil {
		return len(report.RiskOrder)
	}
	return report.RiskOrder[f.Risk.Rating]
}

// technical is what the technical appendix keeps exactly: the command,
// the tool's version, the exit status, and the times as recorded.
func technical(r *report.Run, exit int) []metaItem {
	var m []metaItem
	add := func(label, value string) {
		if value != "" {
			m = append(m, metaItem{label, value})
		}
	}
	add("Command", "lockaudit "+r.Command)
	add("Tool", strings.TrimSpace(r.Tool.Name+" "+r.Tool.Version))
	add("Exit status", exitText(exit))
	add("Run at", r.Time)
	if w := r.Probed; w != nil {
		add("Servers read", w.Start+" to "+w.End)
	}
	if s := r.Source; s != nil {
		add("Revision", strings.TrimSpace(s.VCS+" "+s.Revision))
		add("Revision time", s.Time)
	}
	add("Target", report.TargetText(r))
	add("Topology", r.Topology)
	return m
}

func exitText(code int) string {
	if s, ok := map[int]string{report.ExitOK: "0 (nothing to fix)", report.ExitFailed: "1 (the run is incomplete)", report.ExitFindings: "3 (findings to fix)", report.ExitUnknown: "4 (a fact the verdict needs is unknown)"}[code]; ok {
		return s
	}
	return strconv.Itoa(code)
}
