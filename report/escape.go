package report

import (
	"strings"

	"github.com/lockaudit/lockaudit/internal/safetext"
	"github.com/lockaudit/lockaudit/rules"
)

// Escape makes text that came from outside lockaudit safe to print
// (safetext.Escape). It is applied once, where a Run meets a format a
// person reads (report/render's text, Markdown and HTML, Summary,
// render.WriteErrors): HTML shows the escapes as text, where its template
// escapes markup. JSON and SARIF keep the exact strings, with these
// characters as \u escapes (jsonstream.Escaper).
func Escape(s string) string { return safetext.Escape(s) }

// SourceMax is the most of a finding's source line a report shows (the
// SARIF snippet, the text, Markdown and HTML reports): a line of a
// generated or minified file can be megabytes long, and what matters is
// where it starts. The JSON report keeps the line as the run has it.
const SourceMax = 512

// CutSource cuts a source line to SourceMax bytes, at a character
// boundary, and says so with a trailing "…".
func CutSource(s string) string {
	cut, whole := safetext.Prefix(s, SourceMax)
	if whole {
		return s
	}
	return cut + "…"
}

// EscapeLines escapes each line of a multi-line message and keeps the line
// breaks (safetext.Lines).
func EscapeLines(s string) string { return safetext.Lines(s) }

// textMap says how a walk over a run rewrites each kind of its text:
// values, multi-line messages (whose line breaks are their structure) and
// source lines. It is the one walk over every string of a run, so a field
// added to the model is escaped and redacted alike
// (TestEscapedCoversEveryString).
type textMap struct {
	value, lines, source func(string) string
}

// escaping is what the text, Markdown and HTML renderers show: every
// string escaped, source lines trimmed (their indentation is layout, not
// content) and cut to SourceMax.
var escaping = textMap{value: Escape, lines: EscapeLines, source: func(s string) string { return Escape(CutSource(strings.TrimSpace(s))) }}

// Escaped returns a copy of the run in which every string is escaped: what
// the text, Markdown and HTML renderers show. The run itself is left alone
// (JSON and SARIF keep the exact values; their encoders escape them).
func (r *Run) Escaped() *Run { return r.mapText(escaping) }

// Redact returns a copy of the run with redact applied to every string
// (secret.Redactor: the password out of every text of every report, the
// consultant's notes included). The plan is left to the renderers, which
// derive it from the copy.
func (r *Run) Redact(redact func(string) string) *Run {
	return r.mapText(textMap{value: redact, lines: redact, source: redact})
}

// Redact is Run.Redact for a comparison of two runs.
func (c *Comparison) Redact(redact func(string) string) *Comparison {
	return c.mapText(textMap{value: redact, lines: redact, source: redact})
}

// mapText returns a copy of the run with every string rewritten by m.
func (r *Run) mapText(m textMap) *Run {
	e := m.value
	c := *r
	c.Tool = Tool{Name: e(r.Tool.Name), Version: e(r.Tool.Version)}
	c.Command, c.Target, c.Time, c.Topology, c.FailOn = e(r.Command), e(r.Target), e(r.Time), e(r.Topology), e(r.FailOn)
	c.Packages, c.AnalyzedPackages, c.Rules = m.strs(r.Packages), m.strs(r.AnalyzedPackages), m.strs(r.Rules)
	c.UnanalyzedPackages = m.strs(r.UnanalyzedPackages)
	if r.Errors != nil {
		c.Errors = make([]Error, len(r.Errors))
		for i, x := range r.Errors {
			c.Errors[i] = Error{Where: e(x.Where), Message: m.lines(x.Message)}
		}
	}
	c.Findings = m.findings(r.Findings)
	if r.Uses != nil {
		c.Uses = make([]Use, len(r.Uses))
		for i, u := range r.Uses {
			c.Uses[i] = Use{Command: u.Command, Sites: m.sites(u.Sites)}
		}
	}
	c.Nodes = m.nodes(r.Nodes)
	if r.Verdict != nil {
		c.Verdict = m.verdict(r.Verdict)
	}
	if r.Scan != nil {
		c.Scan = m.scan(r.Scan)
	}
	if r.Engagement != nil {
		c.Engagement = m.engagement(r.Engagement)
	}
	if so := r.Source; so != nil {
		cs := *so
		cs.Module, cs.VCS, cs.Revision, cs.Time = e(so.Module), e(so.VCS), e(so.Revision), e(so.Time)
		c.Source = &cs
	}
	if w := r.Probed; w != nil {
		c.Probed = &Window{Start: e(w.Start), End: e(w.End)}
	}
	if t := r.TargetFrom; t != nil {
		ct := TargetChoice{Releases: m.strs(t.Releases), Source: t.Source, Unknown: m.strs(t.Unknown)}
		for _, n := range t.Nodes {
			ct.Nodes = append(ct.Nodes, TargetNode{Addr: e(n.Addr), Server: e(n.Server), Version: e(n.Version)})
		}
		c.TargetFrom = &ct
	}
	c.Plan = nil // derived: renderers make it from the copy
	if cmp := r.Since; cmp != nil {
		c.Since = cmp.mapText(m)
	}
	if r.Drill != nil {
		c.Drill = r.Drill.mapText(m)
	}
	c.Conform = m.conform(r.Conform)
	return &c
}

// The walk's parts, one for each kind of value the model holds; each
// returns a copy (nil stays nil).

func (m textMap) strs(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = m.value(s)
	}
	return out
}

func (m textMap) pos(p Position) Position { p.File = m.value(p.File); return p }

func (m textMap) sites(ss []Site) []Site {
	var out []Site
	for _, s := range ss {
		out = append(out, Site{Pos: m.pos(s.Pos), What: m.value(s.What)})
	}
	return out
}

func (m textMap) findings(fs []Finding) []Finding {
	if fs == nil {
		return nil
	}
	e := m.value
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.Rule, f.Message, f.Source, f.Node, f.Subject = rules.ID(e(string(f.Rule))), e(f.Message), m.source(f.Source), e(f.Node), e(f.Subject)
		f.Func, f.ID, f.Owner, f.Effort = e(f.Func), e(f.ID), e(f.Owner), e(f.Effort)
		if k := f.Risk; k != nil {
			f.Risk = &Risk{Impact: e(k.Impact), Exposure: e(k.Exposure), Rating: e(k.Rating), Why: e(k.Why)}
		}
		if f.Pos != nil {
			p := m.pos(*f.Pos)
			f.Pos = &p
		}
		if s := f.Suppressed; s != nil {
			f.Suppressed = &Suppression{Kind: e(s.Kind), Justification: e(s.Justification)}
		}
		out[i] = f
	}
	return out
}

func (m textMap) nodes(ns []Node) []Node {
	if ns == nil {
		return nil
	}
	e := m.value
	out := make([]Node, len(ns))
	for i, n := range ns {
		n.Addr, n.Role, n.Server, n.Version = e(n.Addr), e(n.Role), e(n.Server), e(n.Version)
		n.Primary, n.Shard = e(n.Primary), e(n.Shard)
		n.Errors, n.Notes = m.strs(n.Errors), m.strs(n.Notes)
		if n.Config != nil {
			cfg := make(map[string]string, len(n.Config))
			for k, v := range n.Config {
				cfg[e(k)] = e(v)
			}
			n.Config = cfg
		}
		if n.Evidence != nil {
			ev := make([]Evidence, len(n.Evidence))
			for j, x := range n.Evidence {
				ev[j] = Evidence{Command: e(x.Command), Answer: e(x.Answer)}
			}
			n.Evidence = ev
		}
		out[i] = n
	}
	return out
}

func (m textMap) verdict(v *Verdict) *Verdict {
	cv := Verdict{FromCode: v.FromCode, Legacy: m.strs(v.Legacy)}
	for _, pv := range v.Paths {
		cp := PathVerdict{Path: pv.Path, Safe: pv.Safe}
		for _, ch := range pv.Checks {
			cc := ch
			cc.Sites = m.sites(ch.Sites)
			cc.Reasons = nil
			for _, x := range ch.Reasons {
				cc.Reasons = append(cc.Reasons, m.reason(x))
			}
			cp.Checks = append(cp.Checks, cc)
		}
		cv.Paths = append(cv.Paths, cp)
	}
	return &cv
}

func (m textMap) reason(x Reason) Reason {
	e := m.value
	x.Node = NodeRef{Addr: e(x.Node.Addr), Role: e(x.Node.Role), Server: e(x.Node.Server), Version: e(x.Node.Version), Target: e(x.Node.Target)}
	ev := x.Evidence
	ev.Command, ev.Error, ev.Where, ev.Link.Status = e(ev.Command), e(ev.Error), e(ev.Where), e(ev.Link.Status)
	ev.Tokens, ev.Errors = m.strs(ev.Tokens), m.strs(ev.Errors)
	x.Evidence = ev
	x.Promotion.Error = e(x.Promotion.Error)
	x.Gap = FleetGap{Kind: x.Gap.Kind, Errors: m.strs(x.Gap.Errors), Primary: e(x.Gap.Primary), Nodes: m.strs(x.Gap.Nodes)}
	return x
}

func (m textMap) scan(sc *Scan) *Scan {
	e := m.value
	cs := *sc
	cs.Patterns, cs.MaxLease = m.strs(sc.Patterns), e(sc.MaxLease)
	if sc.Shards != nil {
		cs.Shards = make([]ScanShard, len(sc.Shards))
		for i, sh := range sc.Shards {
			sh.Primary, sh.ReadFrom, sh.Role, sh.Note = e(sh.Primary), e(sh.ReadFrom), e(sh.Role), e(sh.Note)
			if sh.Databases != nil {
				dbs := make([]ScanDB, len(sh.Databases))
				for j, d := range sh.Databases {
					d.Note = e(d.Note)
					dbs[j] = d
				}
				sh.Databases = dbs
			}
			cs.Shards[i] = sh
		}
	}
	return &cs
}

func (m textMap) engagement(en *Engagement) *Engagement {
	e := m.value
	c := &Engagement{Title: e(en.Title), Client: e(en.Client), System: e(en.System), Environment: e(en.Environment),
		Author: e(en.Author), Notes: m.lines(en.Notes), Reviewer: e(en.Reviewer), Version: e(en.Version)}
	for _, a := range en.Assign {
		c.Assign = append(c.Assign, Assignment{Match: e(a.Match), Owner: e(a.Owner), Effort: e(a.Effort)})
	}
	return c
}

func (m textMap) conform(ns []ConformNode) []ConformNode {
	if ns == nil {
		return nil
	}
	e := m.value
	out := make([]ConformNode, len(ns))
	for i, n := range ns {
		n.Node, n.Role, n.Server, n.Primary, n.Error = e(n.Node), e(n.Role), e(n.Server), e(n.Primary), e(n.Error)
		if n.Steps != nil {
			steps := make([]ConformStep, len(n.Steps))
			for j, st := range n.Steps {
				steps[j] = ConformStep{Step: e(st.Step), Command: e(st.Command), Expected: e(st.Expected), Got: e(st.Got), Status: e(st.Status),
					Kind: st.Kind, After: e(st.After), Uses: st.Uses, Advice: e(st.Advice)}
			}
			n.Steps = steps
		}
		out[i] = n
	}
	return out
}

// Escaped is a comparison with every string escaped (see Run.escaped).
func (c *Comparison) Escaped() *Comparison { return c.mapText(escaping) }

// mapText returns a copy of the comparison with every string rewritten by m.
func (c *Comparison) mapText(m textMap) *Comparison {
	e := m.value
	ref := func(r RunRef) RunRef {
		r.Command, r.Time, r.Tool, r.Module, r.Revision = e(r.Command), e(r.Time), e(r.Tool), e(r.Module), e(r.Revision)
		return r
	}
	out := &Comparison{Old: ref(c.Old), New: ref(c.New)}
	for _, v := range c.Verdict {
		out.Verdict = append(out.Verdict, VerdictChange{Path: v.Path, Old: e(v.Old), New: e(v.New)})
	}
	var fs []Finding
	for _, f := range c.Findings {
		fs = append(fs, f.Finding)
	}
	fs = m.findings(fs)
	for i, f := range c.Findings {
		out.Findings = append(out.Findings, FindingChange{Change: e(f.Change), Finding: fs[i]})
	}
	for _, n := range c.Nodes {
		n.Addr, n.Change, n.Role, n.OldServer, n.NewServer = e(n.Addr), e(n.Change), e(n.Role), e(n.OldServer), e(n.NewServer)
		var d []string
		for _, x := range n.Difference {
			d = append(d, e(x))
		}
		n.Difference = d
		out.Nodes = append(out.Nodes, n)
	}
	for _, x := range c.NotCompared {
		out.NotCompared = append(out.NotCompared, e(x))
	}
	return out
}

// mapText returns a copy of the drill with every string rewritten by m
// (see Run.mapText).
func (d *Drill) mapText(m textMap) *Drill {
	e := m.value
	out := &Drill{Fleet: e(d.Fleet), Server: e(d.Server), LeaseMS: d.LeaseMS}
	for _, v := range d.Variants {
		cv := DrillVariant{Setting: e(v.Setting), Outcome: v.Outcome, Skipped: e(v.Skipped), Error: e(v.Error)}
		cv.Outcome.BWrite, cv.Outcome.AWrite = e(v.Outcome.BWrite), e(v.Outcome.AWrite)
		for _, n := range v.Nodes {
			n.Addr, n.Role = e(n.Addr), e(n.Role)
			cv.Nodes = append(cv.Nodes, n)
		}
		for _, ev := range v.Events {
			ev.Time, ev.Actor, ev.Node, ev.Reply, ev.Step, ev.Detail = e(ev.Time), e(ev.Actor), e(ev.Node), e(ev.Reply), e(ev.Step), e(ev.Detail)
			var c []string
			for _, a := range ev.Command {
				c = append(c, e(a))
			}
			ev.Command = c
			cv.Events = append(cv.Events, ev)
		}
		if v.Findings != nil {
			cv.Findings = m.findings(v.Findings)
		}
		out.Variants = append(out.Variants, cv)
	}
	return out
}

// ShellQuote makes s one inert word of a POSIX shell command line: a
// command a report shows to a person (a plan's Verify line) is pasted into
// a shell, and a value in it came from the run — a node address, a package
// pattern, a release — which a hostile saved run chooses. A word of only
// letters, digits and _@%+=:,./- is left as it is; any other is put in
// single quotes (a single quote inside closes them, is escaped with a
// backslash, and opens them again), where $(…), `…`, ;, |, globs, ~ and
// newlines mean nothing.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !shellSafe(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellSafe(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)
}

// shellLine joins words into a command line, each quoted by ShellQuote.
func shellLine(words ...string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = ShellQuote(w)
	}
	return strings.Join(quoted, " ")
}
