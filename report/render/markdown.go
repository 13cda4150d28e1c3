package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// The Markdown report says what the HTML report says, for a ticket or a
// pull request: GitHub-flavored tables, fenced code, and the topology as a
// nested list instead of a picture. Every value from the Run is escaped, so
// a message or source line can neither break a table nor inject markup.

func init() { registerFormat("markdown", renderMarkdown) }

func renderMarkdown(w io.Writer, r *report.Run, _ Options) error {
	v := newView(r)
	b, done := reportBuffer(w)
	md := &mdWriter{b}

	md.header(v)
	md.executiveSummary(v)
	if notes := notesMarkdown(v.Notes); notes != "" {
		md.section("Notes from the auditor")
		md.b.WriteString(notes)
	}
	md.scope(v)
	if v.Since != nil {
		md.section("Changes since the last audit")
		md.comparison(v.Since.Comparison)
	}
	if v.Plan != nil && len(v.Plan.Steps) > 0 {
		md.section("Remediation plan")
		md.plan(v.Plan)
	}
	if v.Shows("verdict") {
		md.section("Verdict by lock path")
		md.verdicts(v)
	}
	if v.HasFleet {
		md.section("Topology and servers")
		md.fleet(v)
	}
	if v.Scan != nil {
		md.section("Scan coverage")
		md.scan(v.Scan)
	}
	if len(v.Conform) > 0 {
		md.section("Conformance by node")
		md.conform(v.Conform)
	}
	if v.Drill != nil {
		md.section("Failover drill")
		md.drill(v.Drill)
	}
	md.register(v)
	if v.HasCode {
		md.findings("Findings in the code", "No problems found in the code.", v.CodeGroups)
	}
	if v.HasServers {
		md.findings("Findings on the servers", "No problems found on the servers.", v.NodeGroups)
	}
	md.suppressed(v)
	md.uses(v)
	md.signOff(v)
	if len(v.ConfigRows) > 0 {
		md.section(v.AppendixTitle("config"))
		md.configAppendix(v)
	}
	md.section(v.AppendixTitle("rules"))
	md.rulesAppendix(v)
	md.evidenceAppendix(v)
	md.technical(v, r.SchemaVersion)
	return done(nil)
}

// header is the title, the run's facts and the contents.
func (md *mdWriter) header(v *view) {
	md.line("# " + mdText(v.Title))
	var meta []string
	for _, m := range v.Meta {
		meta = append(meta, fmt.Sprintf("**%s:** %s", m.Label, mdText(m.Value)))
	}
	if len(meta) > 0 {
		md.line("")
		md.line(strings.Join(meta, " · "))
	}
	md.toc(v)
}

// executiveSummary is the status, the plan's summary, what the report
// covers, the errors of an incomplete run, the verdict table, the
// severities and the counts.
func (md *mdWriter) executiveSummary(v *view) {
	md.section("Executive summary")
	md.line(fmt.Sprintf("> **%s:** %s", v.Status.Word, mdText(v.Status.Headline)))
	md.line("")
	if v.Plan != nil {
		md.line(mdProse(v.Plan.Summary))
		md.line("")
	}
	var scope []string
	for _, sc := range v.Scope {
		mark := "✗"
		if sc.Done {
			mark = "✓"
		}
		scope = append(scope, mark+" "+mdText(sc.Text))
	}
	md.line("This report covers: " + strings.Join(scope, " · "))
	if len(v.Errors) > 0 {
		md.line("")
		md.line("### The run is incomplete")
		md.line("")
		md.table([]string{"Where", "Error"}, func(row func(...string)) {
			for _, e := range v.Errors {
				row(mdCode(e.Where), mdText(e.Message))
			}
		})
	}
	if v.Verdicts != nil {
		md.line("")
		md.verdictTable(v)
	}
	md.severity(v)
	md.line("")
	md.table([]string{"What", "Count", "Detail"}, func(row func(...string)) {
		for _, c := range v.Counts {
			row(c.Label, fmt.Sprint(c.Value), mdText(c.Detail))
		}
	})
}

// verdictTable is the summary's verdict: one row per lock path.
func (md *mdWriter) verdictTable(v *view) {
	head := "The code relies on it"
	if len(v.Verdicts) > 0 {
		head = v.Verdicts[0].ReliedText()
	}
	md.table([]string{"Lock path", "Commands", "Verdict", head, "What it means"}, func(row func(...string)) {
		for _, vv := range v.Verdicts {
			relied := "no"
			if vv.ReliedOn {
				relied = "yes"
				if vv.Sites > 0 {
					relied += " (" + report.Plural(vv.Sites, "place") + ")"
				}
			}
			row(vv.Path, vv.Commands, "**"+mdText(vv.Word)+"**", relied, mdText(vv.Meaning))
		}
	})
}

// verdicts is each lock path's verdict with its reasons.
func (md *mdWriter) verdicts(v *view) {
	for i, pv := range v.Verdicts {
		if i > 0 {
			md.line("")
		}
		head := fmt.Sprintf("**%s", pv.Path)
		if pv.Judged != "" {
			head += " (" + pv.Judged + ")"
		}
		head += ": " + mdText(pv.Word) + "**"
		if pv.ReliedOn {
			head += " (" + strings.ToLower(pv.ReliedText()) + ")"
		}
		md.line(head + " " + mdText(pv.Meaning))
		for _, l := range pv.Shown() {
			prefix := "- "
			if l.Note() {
				prefix = "- Note: "
			}
			md.line(prefix + mdText(l.Detail))
		}
	}
	if v.Legacy {
		md.line("")
		md.line("Reasons, as the run recorded them:")
		md.line("")
		for _, reason := range v.Reasons {
			md.line("- " + mdText(reason))
		}
	}
}

// fleet is the topology, the servers and which of their settings differ.
func (md *mdWriter) fleet(v *view) {
	md.topology(v)
	md.line("")
	md.line("### Servers")
	md.line("")
	md.nodeTable(v)
	if len(v.ConfigKeys) > 0 {
		md.line("")
		note := "Config that differs: the settings whose value is not the same on every server, or not what a rule recommends on that server."
		if v.SameConfig > 0 {
			note += fmt.Sprintf(" The other %s read on every server %s the same everywhere and as recommended.", report.Plural(v.SameConfig, "setting"), report.PluralVerb(v.SameConfig, "is", "are"))
		}
		md.line(note + " Every value is in " + v.AppendixTitle("config") + ".")
	}
}

// findings is one half's findings by rule, or none says there are none.
func (md *mdWriter) findings(title, none string, groups []*ruleGroup) {
	md.section(title)
	if len(groups) == 0 {
		md.line(none)
		md.line("")
	}
	for _, g := range groups {
		md.group(g)
	}
}

// suppressed lists the findings silenced on purpose, each with its
// justification.
func (md *mdWriter) suppressed(v *view) {
	if len(v.Suppressed) == 0 {
		return
	}
	md.section("Suppressed findings")
	md.line("These findings were silenced on purpose; they do not count, but each carries its justification.")
	md.line("")
	for _, f := range v.Suppressed {
		md.line(fmt.Sprintf("- %s %s (%s): %s", mdCode(f.ID), mdCode(f.Location()), f.Severity, mdText(f.Message)))
		if f.Source != "" {
			md.fence(strings.TrimSpace(f.Source), "  ")
		}
		md.line(fmt.Sprintf("  - Suppressed (%s): %s", mdText(suppressionKind(f.Suppressed.Kind)), mdText(f.Suppressed.Justification)))
	}
}

// uses is the commands relied on, each with its verdict and sites.
func (md *mdWriter) uses(v *view) {
	if len(v.Uses) > 0 || v.UsesKnown {
		md.section(v.UsesTitle)
	}
	switch {
	case len(v.Uses) > 0:
		md.table([]string{"Command", "Verdict on this fleet", "Where", "What"}, func(row func(...string)) {
			for _, u := range v.Uses {
				verdict := "not checked"
				if u.Verdict != "" {
					verdict = mdText(u.Verdict)
				}
				if len(u.Sites) == 0 {
					row(mdText(u.Command), verdict, "no site recorded", "")
				}
				for _, s := range u.Sites {
					row(mdText(u.Command), verdict, mdCode(s.Pos.String()), mdText(s.What))
				}
			}
		})
	case v.UsesKnown:
		md.line("The code relies on none of DELIFEQ, DELEX, SET IFEQ or Lua.")
	}
}

// rulesAppendix documents each rule that fired.
func (md *mdWriter) rulesAppendix(v *view) {
	if len(v.Rules) == 0 {
		md.line("No rule fired.")
	}
	for i, rule := range v.Rules {
		if i > 0 {
			md.line("")
		}
		md.line(fmt.Sprintf("### %s %s: %s", rule.ID, rule.Name, mdProse(rule.Title)))
		md.line("")
		line := "Severity: " + rule.Severity.String()
		if len(rule.MinServers) > 0 {
			line += " · Concerns servers: " + strings.Join(rule.MinServers, ", ")
		}
		md.line(line)
		md.line("")
		md.line("**What:** " + mdProse(rule.What))
		md.line("")
		md.line("**Why:** " + mdProse(rule.Why))
		md.line("")
		md.line("**Fix:** " + mdProse(rule.Fix))
		md.line("")
		md.line("Bad:")
		md.line("")
		md.fence(strings.TrimRight(rule.Bad, "\n"), "")
		md.line("")
		md.line("Good:")
		md.line("")
		md.fence(strings.TrimRight(rule.Good, "\n"), "")
	}
}

// evidenceAppendix is each node's evidence: the commands read and what
// they answered.
func (md *mdWriter) evidenceAppendix(v *view) {
	if len(v.Nodes) > 0 {
		md.section(v.AppendixTitle("evidence"))
	}
	for i, n := range v.Nodes {
		if i > 0 {
			md.line("")
		}
		md.line(fmt.Sprintf("### %s (%s · %s)", mdCode(n.Addr), mdText(report.RoleText(n.Role)), mdText(n.Label)))
		md.line("")
		if len(n.Evidence) == 0 {
			what := "No evidence recorded."
			if n.Declared {
				what = "No evidence recorded: declared in an inventory, not probed."
			}
			md.line("_" + what + "_")
			continue
		}
		md.table([]string{"Command", "Answer"}, func(row func(...string)) {
			for _, e := range n.Evidence {
				row(mdCode(e.Command), mdCode(e.Answer))
			}
		})
	}
}

type mdWriter struct{ b *bytes.Buffer }

func (md *mdWriter) line(s string) {
	md.b.WriteString(s)
	md.b.WriteByte('\n')
}

func (md *mdWriter) section(title string) {
	if !bytes.HasSuffix(md.b.Bytes(), []byte("\n\n")) {
		md.line("")
	}
	md.line("## " + title)
	md.line("")
}

// table writes a GitHub-flavored table; cells arrive already escaped as
// Markdown, and only the pipe (which ends a cell even inside code) is
// Escaped here.
func (md *mdWriter) table(header []string, rows func(row func(...string))) {
	write := func(cells []string) {
		for i := range cells {
			cells[i] = strings.ReplaceAll(cells[i], "|", `\|`)
		}
		md.line("| " + strings.Join(cells, " | ") + " |")
	}
	write(append([]string(nil), header...))
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
	}
	md.line("|" + strings.Join(sep, "|") + "|")
	rows(func(cells ...string) { write(cells) })
}

// fence writes a fenced code block longer than any backtick run inside it.
func (md *mdWriter) fence(code, indent string) {
	f := strings.Repeat("`", max(3, longestRun(code, '`')+1))
	md.line(indent + f)
	for _, l := range strings.Split(code, "\n") {
		md.line(indent + l)
	}
	md.line(indent + f)
}

func (md *mdWriter) group(g *ruleGroup) {
	md.line(fmt.Sprintf("### %s · %s%s: %s (%s)", g.Severity, mdText(string(g.Rule.ID)), prefixed(" ", g.Rule.Name), mdProse(g.Rule.Title), report.Plural(len(g.Findings), "finding")))
	md.line("")
	if g.Known {
		md.line("**Fix:** " + mdProse(oneLine(g.Rule.Fix)))
		md.line("")
	}
	for _, f := range g.Findings {
		md.line(findingLine(f))
		if f.Source != "" {
			md.fence(strings.TrimSpace(f.Source), "  ")
		}
	}
	md.line("")
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func mdNodeLine(n *nodeView) string {
	s := fmt.Sprintf("%s %s: %s", mdText(report.RoleText(n.Role)), mdCode(n.Addr), mdText(n.Label))
	if n.Role != "sentinel" {
		s += ", " + mdText(n.Promotable)
	}
	for _, m := range n.Marks {
		s += ", " + mdText(m)
	}
	if len(n.Caps) > 0 {
		var caps []string
		for _, c := range n.Caps {
			caps = append(caps, c.Name+" "+mdCap(c))
		}
		s += "; " + strings.Join(caps, ", ")
	}
	if len(n.Errors) > 0 {
		s += "; **" + report.Plural(len(n.Errors), "error") + "**"
	}
	return s
}

// mdCap is a node's answer for one command, in bold when it is a problem.
func mdCap(c capView) string {
	if c.Class == "bad" {
		return "**" + mdText(strings.ToUpper(c.Value)) + "**"
	}
	return mdText(c.Value)
}

// mdText escapes text from the Run so Markdown shows it literally. Pipes
// are left to table(), which escapes them in cells.
func mdText(s string) string { return mdEscape(strings.Join(strings.Fields(s), " ")) }

// mdEscape is mdText without collapsing spaces (text between inline
// elements keeps the spaces around them).
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#~&!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is an inline code span that holds any text, backticks included.
func mdCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return f + s + f
}

// mdProse is catalog text, which is written as Markdown already (it uses
// `code` spans); only '<' is escaped so "<=" is never read as a tag.
func mdProse(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		if i > 0 {
			b.WriteByte('`')
		}
		if i%2 == 0 {
			part = strings.ReplaceAll(part, "<", `\<`)
		}
		b.WriteString(part)
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func (md *mdWriter) topology(v *view) {
	if len(v.Sentinels) > 0 {
		md.line(fmt.Sprintf("- Sentinels (%d): they watch the primaries and decide failovers", len(v.Sentinels)))
		for _, n := range v.Sentinels {
			md.line("  - " + mdNodeLine(n))
		}
	}
	for _, g := range v.Groups {
		indent := ""
		if g.Orphans {
			md.line("- " + mdText(g.Label)) // the members' depth counts this level
		} else if g.Name != "" { // a cluster shard
			md.line(fmt.Sprintf("- %s: shard ID %s", mdText(g.Name), mdCode(g.ID)))
			indent = "  "
		}
		for _, n := range g.Members {
			md.line(indent + strings.Repeat("  ", n.Depth) + "- " + mdNodeLine(n))
		}
	}
}

func (md *mdWriter) nodeTable(v *view) {
	md.table([]string{"Address", "Role", "Promotable", "Server", "Lua", "DELIFEQ", "DELEX", "SET IFEQ", "Config that differs", "Errors and notes"}, func(row func(...string)) {
		for _, n := range v.Nodes {
			addr := mdCode(n.Addr)
			for _, m := range n.Marks {
				addr += " (" + mdText(m) + ")"
			}
			role := mdText(report.RoleText(n.Role))
			if n.Primary != "" {
				role += " of " + mdCode(n.Primary)
			}
			cells := []string{addr, role, mdText(n.PromShort), mdText(n.Label)}
			if len(n.Caps) == 0 {
				cells = append(cells, "n/a", "n/a", "n/a", "n/a")
			}
			for _, c := range n.Caps {
				cells = append(cells, mdCap(c))
			}
			var cfg []string
			for _, c := range n.DiffConfig {
				cell := mdCode(c.Key + " " + c.Value)
				if c.Advice != "" {
					cell += " (" + mdText(c.Advice) + ")"
				}
				cfg = append(cfg, cell)
			}
			var notes []string
			for _, e := range n.Errors {
				notes = append(notes, "**error:** "+mdText(e))
			}
			for _, e := range n.Notes {
				notes = append(notes, mdText(e))
			}
			cells = append(cells, strings.Join(cfg, " "), strings.Join(notes, "; "))
			row(cells...)
		}
	})
}
