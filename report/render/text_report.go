package render

import (
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// The text report's deliverable parts: the executive summary and the
// remediation plan (for runs that judged a fleet), and the comparison with
// an earlier run. Lines are plain text, indented, for a terminal or a log.

// writePlan prints the summary paragraph and the numbered steps.
func writePlan(p *errWriter, plan *report.Plan) {
	p.printf("Summary:\n%s\n", indentWrap(plan.Summary, "  "))
	if len(plan.Steps) == 0 {
		return
	}
	p.printf("\nRemediation plan:\n")
	for _, s := range plan.Steps {
		p.printf("  %d. %s\n%s\n", s.N, s.Title, indentWrap(s.Why, "     "))
		for i, w := range s.Nodes {
			var lacks []string
			for _, c := range w.Lacks {
				lacks = append(lacks, c.Title())
			}
			p.printf("     %c) %s (%s, %s; %s %s): %s\n", 'a'+rune(i%26), w.Addr, w.Role, w.Server, lacksWord(s.Kind), strings.Join(lacks, ", "), w.Why)
			for _, d := range w.Do {
				p.printf("        - %s\n", d)
			}
		}
		for _, g := range s.Gaps {
			p.printf("     - %s\n", g)
		}
		for _, g := range s.Code {
			p.printf("     - %s %-7s %s, %d by vet -fix, %d by hand, in %s: %s\n", g.Rule, g.Severity, report.Plural(g.Findings, "finding"), g.Autofix, g.Findings-g.Autofix, report.Plural(g.Files, "file"), g.Title)
		}
		for _, c := range s.Config {
			p.printf("     - %s: %s %s -> %s (%s)\n", c.Node, c.Setting, c.Current, c.Recommended, c.Rule)
		}
		for _, c := range s.Costs() {
			p.printf("     %s %s costs: %s; not when %s\n", c.Setting, c.Recommended, c.Cost, c.NotWhen)
		}
		if len(s.Commands) > 0 {
			p.printf("     Commands:\n")
			for _, c := range s.Commands {
				p.printf("       $ %s\n", c)
			}
		}
		p.printf("     Verify:\n")
		for _, v := range s.Verify {
			p.printf("       $ %s\n", v)
		}
	}
}

// writeComparison prints a comparison: counts, verdicts, nodes, findings.
func writeComparison(p *errWriter, c *report.Comparison) {
	counts := c.Counts()
	upgraded := 0
	for _, n := range c.Nodes {
		if n.Change == report.NodeUpgraded {
			upgraded++
		}
	}
	ref := func(r report.RunRef) string {
		s := r.Command
		if r.Time != "" {
			s += " of " + r.Time
		}
		if r.Revision != "" {
			s += ", code at " + r.Revision[:min(len(r.Revision), 12)]
		}
		return s
	}
	p.printf("Changes since the last audit (%s -> %s):\n", ref(c.Old), ref(c.New))
	p.printf("  %d fixed, %d new, %d unchanged", counts[report.ChangeFixed], counts[report.ChangeNew], counts[report.ChangeUnchanged])
	if n := counts[report.ChangeSuppressed]; n > 0 {
		p.printf(", %d suppressed since", n)
	}
	p.printf("; %s upgraded\n", report.Plural(upgraded, "server"))
	for _, n := range c.NotCompared {
		p.printf("  not compared: %s\n", n)
	}
	for _, v := range c.Verdict {
		mark := ""
		if v.Old != v.New {
			mark = "  (changed)"
		}
		p.printf("  verdict %s: %s -> %s%s\n", v.Path, v.Old, v.New, mark)
	}
	for _, n := range c.Nodes {
		line := "  node " + n.Addr + " (" + n.Role + "): " + n.Change
		switch {
		case n.OldServer != "" && n.NewServer != "" && n.OldServer != n.NewServer:
			line += ", " + n.OldServer + " -> " + n.NewServer
		case n.NewServer != "":
			line += ", " + n.NewServer
		default:
			line += ", " + n.OldServer
		}
		if len(n.Difference) > 0 {
			line += "; " + strings.Join(n.Difference, ", ")
		}
		p.printf("%s\n", line)
	}
	for _, f := range c.Findings {
		p.printf("  %-10s %s %-7s %s  %s\n", f.Change, f.Finding.Rule, f.Finding.Severity, f.Finding.Location(), f.Finding.Message)
	}
}

// indentWrap wraps a paragraph at 100 columns under an indent.
func indentWrap(s, indent string) string {
	var lines []string
	line := indent
	for _, w := range strings.Fields(s) {
		if len(line) > len(indent) && len(line)+1+len(w) > 100 {
			lines = append(lines, line)
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// lacksWord heads a step's command column: an upgrade's nodes lack the
// commands, an evidence step's leave them unknown.
func lacksWord(kind string) string {
	if kind == report.PlanEvidence {
		return "unknown"
	}
	return "lacks"
}
