package render

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/lockaudit/lockaudit/report"
)

// The Markdown report's deliverable parts (see report_view.go): the same
// contents, plan, comparison, scan and conformance tables as the HTML
// report, as Markdown.

// toc lists the sections, each linked to the anchor GitHub and most
// Markdown viewers give its heading.
func (md *mdWriter) toc(v *view) {
	md.line("")
	md.line("**Contents**")
	md.line("")
	n := 0
	for _, e := range v.TOC {
		title := e.Title
		if e.Appendix {
			md.line(fmt.Sprintf("- [%s](#%s)", mdText(title), slug(title)))
			continue
		}
		n++
		md.line(fmt.Sprintf("%d. [%s](#%s)", n, mdText(title), slug(title)))
	}
}

// slug is a heading's anchor as GitHub makes it: lower case, spaces to
// hyphens, punctuation dropped.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ' || r == '-':
			b.WriteByte('-')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (md *mdWriter) severity(v *view) {
	if len(v.Severity) == 0 {
		return
	}
	md.line("")
	md.table([]string{"Findings", "Error", "Warning", "Info", "Total"}, func(row func(...string)) {
		for _, h := range v.Severity {
			cells := []string{h.Label}
			for _, it := range h.Items {
				cells = append(cells, strconv.Itoa(it.N))
			}
			row(append(cells, strconv.Itoa(h.Total))...)
		}
	})
}

func (md *mdWriter) plan(p *report.Plan) {
	for i, s := range p.Steps {
		if i > 0 {
			md.line("")
		}
		md.line(fmt.Sprintf("### Step %d. %s", s.N, mdText(s.Title)))
		md.line("")
		md.line(mdProse(s.Why))
		if len(s.Nodes) > 0 {
			md.line("")
			md.table([]string{"Order", "Server", capitalize(lacksWord(s.Kind)), "Why at this place", "What to do"}, func(row func(...string)) {
				for j, w := range s.Nodes {
					var lacks []string
					for _, c := range w.Lacks {
						lacks = append(lacks, c.Title())
					}
					var do []string
					for _, d := range w.Do {
						do = append(do, mdText(d))
					}
					row(strconv.Itoa(j+1), mdCode(w.Addr)+" ("+mdText(w.Role+", "+w.Server)+")", mdText(strings.Join(lacks, ", ")), mdText(w.Why), strings.Join(do, "; or "))
				}
			})
		}
		for _, g := range s.Gaps {
			md.line("- " + mdText(g))
		}
		if len(s.Code) > 0 {
			md.line("")
			md.table([]string{"Rule", "Severity", "Findings", "By `vet -fix`", "By hand", "Files"}, func(row func(...string)) {
				for _, g := range s.Code {
					row(mdText(string(g.Rule))+" "+mdProse(g.Title), g.Severity.String(), strconv.Itoa(g.Findings), strconv.Itoa(g.Autofix), strconv.Itoa(g.Findings-g.Autofix), strconv.Itoa(g.Files))
				}
			})
		}
		if len(s.Config) > 0 {
			md.line("")
			md.table([]string{"Server", "Setting", "Now", "Recommended", "Rule"}, func(row func(...string)) {
				for _, c := range s.Config {
					row(mdCode(c.Node), mdCode(c.Setting), mdCode(c.Current), mdCode(c.Recommended), mdText(string(c.Rule)))
				}
			})
			md.line("")
			for _, c := range s.Costs() {
				md.line(fmt.Sprintf("- %s: costs: %s. Not when %s.", mdCode(c.Setting+" "+c.Recommended), mdText(c.Cost), mdText(c.NotWhen)))
			}
		}
		if len(s.Commands) > 0 {
			md.line("")
			md.line("Commands:")
			md.line("")
			md.fence(strings.Join(s.Commands, "\n"), "")
		}
		md.line("")
		md.line("Verify:")
		md.line("")
		md.fence(strings.Join(s.Verify, "\n"), "")
	}
}

func (md *mdWriter) comparison(c *report.Comparison) {
	when := func(r report.RunRef) string {
		s := "an unknown date"
		if r.Time != "" {
			s = humanTime(r.Time)
		}
		if r.Revision != "" {
			s += ", code at " + r.Revision[:min(len(r.Revision), 12)]
		}
		return s
	}
	md.line(fmt.Sprintf("Compared with the run of %s — this run: %s.", mdText(when(c.Old)), mdText(when(c.New))))
	md.line("")
	counts := c.Counts()
	upgraded := 0
	for _, n := range c.Nodes {
		if n.Change == report.NodeUpgraded {
			upgraded++
		}
	}
	md.table([]string{"Fixed", "New", "Unchanged", "Suppressed since", "Servers upgraded"}, func(row func(...string)) {
		row(strconv.Itoa(counts[report.ChangeFixed]), strconv.Itoa(counts[report.ChangeNew]), strconv.Itoa(counts[report.ChangeUnchanged]), strconv.Itoa(counts[report.ChangeSuppressed]), strconv.Itoa(upgraded))
	})
	for _, n := range c.NotCompared {
		md.line("")
		md.line("_Not compared: " + mdText(n) + "_")
	}
	if len(c.Verdict) > 0 {
		md.line("")
		md.line("**Verdict**")
		md.line("")
		md.table([]string{"Lock path", "Before", "Now", ""}, func(row func(...string)) {
			for _, vc := range c.Verdict {
				mark := ""
				if vc.Old != vc.New {
					mark = "**changed**"
				}
				row(vc.Path.Title(), mdText(vc.Old), mdText(vc.New), mark)
			}
		})
	}
	if len(c.Nodes) > 0 {
		md.line("")
		md.line("**Servers**")
		md.line("")
		md.table([]string{"Server", "Change", "Before", "Now", "Differences"}, func(row func(...string)) {
			for _, n := range c.Nodes {
				var d []string
				for _, x := range n.Difference {
					d = append(d, mdText(x))
				}
				row(mdCode(n.Addr)+" ("+mdText(n.Role)+")", "**"+mdText(n.Change)+"**", mdText(orDash(n.OldServer)), mdText(orDash(n.NewServer)), strings.Join(d, "; "))
			}
		})
	}
	if len(c.Findings) > 0 {
		md.line("")
		md.line("**Findings**")
		md.line("")
		md.table([]string{"Change", "Finding", "Where", "Message"}, func(row func(...string)) {
			for _, f := range c.Findings {
				row("**"+mdText(f.Change)+"**", f.Finding.Severity.String()+" "+mdCode(cmp.Or(f.Finding.ID, string(f.Finding.Rule))), mdCode(f.Finding.Location()), mdText(f.Finding.Message))
			}
		})
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (md *mdWriter) scan(s *report.Scan) {
	var pats []string
	for _, p := range s.Patterns {
		pats = append(pats, mdCode(p))
	}
	line := "Lock keys matching " + strings.Join(pats, " or ")
	if s.MaxLease != "" {
		line += "; maximum lease " + mdText(s.MaxLease)
	}
	rate := "no rate limit"
	if s.Rate > 0 {
		rate = strconv.Itoa(s.Rate) + " keys/s per node"
	}
	md.line(line + fmt.Sprintf(" (SCAN COUNT %d, %s).", s.Count, rate))
	md.line("")
	md.table([]string{"Primary", "Read from", "Keys", "Lock keys", "Findings", "Databases", "Status"}, func(row func(...string)) {
		for _, sh := range s.Shards {
			from := "-"
			if sh.ReadFrom != "" {
				from = mdCode(sh.ReadFrom)
				if sh.Role != "" {
					from += " (" + mdText(sh.Role) + ")"
				}
			}
			status := "complete"
			if !sh.Complete {
				status = "**INCOMPLETE**"
			}
			if sh.Note != "" {
				status += ": " + mdText(sh.Note)
			}
			dbs := "-"
			if t := databaseText(sh); t != "" {
				dbs = mdText(t)
			}
			row(mdCode(sh.Primary), from, strconv.FormatInt(sh.Keys, 10), strconv.FormatInt(sh.LockKeys, 10), strconv.Itoa(sh.Findings), dbs, status)
		}
	})
}

func (md *mdWriter) conform(nodes []report.ConformNode) {
	for i, n := range nodes {
		if i > 0 {
			md.line("")
		}
		title := mdText(n.Role) + " " + mdCode(n.Node)
		if n.Server != "" {
			title += " (" + mdText(n.Server) + ")"
		}
		if n.Primary != "" {
			title += ", replica of " + mdCode(n.Primary)
		}
		md.line("### " + title)
		md.line("")
		if n.Error != "" {
			md.line("_Not fully tested: " + mdText(n.Error) + "_")
			md.line("")
		}
		if len(n.Steps) == 0 {
			continue
		}
		md.table([]string{"Step", "Command", "Expected", "Got", "Status"}, func(row func(...string)) {
			for _, s := range n.Steps {
				status := mdText(strings.ToUpper(s.Status))
				if s.Status != report.StepPass && s.Status != report.StepSkipped {
					status = "**" + status + "**"
				}
				row(mdText(s.Step), mdCode(s.Command), mdText(s.Expected), mdText(s.Got), status)
			}
		})
	}
}

func (md *mdWriter) configAppendix(v *view) {
	md.line("Every setting read on every data node (CONFIG GET); a value that differs from a rule's recommendation on that server is in bold, with the recommendation.")
	md.line("")
	header := []string{"Server"}
	header = append(header, v.ConfigKeys...)
	for i := range header[1:] {
		header[i+1] = mdCode(header[i+1])
	}
	md.table(header, func(row func(...string)) {
		for _, r := range v.ConfigRows {
			cells := []string{mdCode(r.Node.Addr)}
			for _, c := range r.Values {
				cell := mdCode(c.Value)
				if c.Advice != "" {
					cell = "**" + cell + "** (" + mdText(c.Advice) + ")"
				}
				cells = append(cells, cell)
			}
			row(cells...)
		}
	})
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
