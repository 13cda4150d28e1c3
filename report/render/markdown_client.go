package render

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// The parts of the Markdown report a client signs: the scope, methodology
// and limitations, the findings register, the sign-off and the technical
// appendix (what the HTML report shows, in the same order).

func (md *mdWriter) scope(v *view) {
	md.section("Scope, methodology and limitations")
	for _, m := range v.Method {
		line := "- **" + mdText(m.Label) + ":**"
		if m.Text != "" {
			line += " " + mdText(m.Text)
		}
		if m.Text == "" {
			var cmds []string
			for _, c := range m.List {
				cmds = append(cmds, mdCode(c))
			}
			line += " " + strings.Join(cmds, " · ")
		}
		md.line(line)
		if m.Text != "" {
			for _, l := range m.List {
				md.line("  - " + mdCode(l))
			}
		}
	}
	md.line("")
	md.line("### What the verdicts do not cover")
	md.line("")
	for _, l := range v.Limits {
		md.line("- " + mdText(l))
	}
}

// register is the findings register: each active finding's ID, risk and
// where it is, with its owner and effort when the engagement assigns any.
func (md *mdWriter) register(v *view) {
	if len(v.Register) == 0 {
		return
	}
	md.section("Findings register")
	head := []string{"ID", "Risk", "Problem", "Where"}
	if v.Assigned {
		head = append(head, "Owner", "Effort")
	}
	md.table(head, func(row func(...string)) {
		for _, f := range v.Register {
			cells := []string{mdCode(f.ID), riskWord(f), mdText(ruleTitle(f.Rule)), mdCode(f.Location())}
			if v.Assigned {
				cells = append(cells, mdText(f.Owner), mdText(f.Effort))
			}
			row(cells...)
		}
	})
}

func riskWord(f report.Finding) string {
	if f.Risk == nil {
		return ""
	}
	return "**" + f.Risk.Rating + "**"
}

// findingLine is one finding of a group: its ID, risk and place, owner
// and effort, then the message.
func findingLine(f report.Finding) string {
	s := fmt.Sprintf("- %s %s %s", mdCode(f.ID), riskWord(f), mdCode(f.Location()))
	var who []string
	if f.Owner != "" {
		who = append(who, "owner: "+mdText(f.Owner))
	}
	if f.Effort != "" {
		who = append(who, "effort: "+mdText(f.Effort))
	}
	if len(who) > 0 {
		s += " (" + strings.Join(who, ", ") + ")"
	}
	return s + ": " + mdText(f.Message)
}

func (md *mdWriter) signOff(v *view) {
	md.section("Sign-off")
	s := v.SignOff
	md.table([]string{"", "Name", "Signature"}, func(row func(...string)) {
		row("Prepared by", mdText(s.PreparedBy), "")
		row("Reviewed by", mdText(s.ReviewedBy), "")
	})
	md.line("")
	md.line(fmt.Sprintf("**Date:** %s · **Version:** %s", orBlank(mdText(s.Date)), orBlank(mdText(s.Version))))
}

func orBlank(s string) string {
	if s == "" {
		return "____"
	}
	return s
}

func (md *mdWriter) technical(v *view, schema int) {
	md.section(v.AppendixTitle("technical"))
	md.line("The run as recorded, for the engineers who repeat or compare it.")
	md.line("")
	for _, m := range v.Technical {
		md.line("- **" + m.Label + ":** " + mdCode(m.Value))
	}
	md.line(fmt.Sprintf("- **Report schema version:** `%d`", schema))
}
