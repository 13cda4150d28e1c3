package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockaudit/lockaudit/rules"
)

func init() { registerFormat("text", renderText) }

// renderText is the one text renderer for every command (vet, probe, audit,
// preflight, render). It prints the parts of a Run that are present, in
// this order:
//
//  1. code findings, one per line, `file:line:col: LA103 message` (the go
//     vet form editors and CI annotators parse);
//  2. where the code relies on each command, when the code half found uses;
//  3. the fleet: topology, the node table, notes, node findings, and the
//     verdict explained, with what the exit status means;
//  4. errors that made the run incomplete, in go vet's `# where` form.
//
// Suppressed findings are not printed (Summary counts them) unless
// o.ShowSuppressed, which prints suppressed code findings in place, each
// message ending with its suppression. A clean vet run prints nothing.
// Nothing here decides the exit status; ExitCode does.
func renderText(w io.Writer, r *report.Run, o Options) error {
	p := &errWriter{w: w, paint: paint(o.Color)}
	v := newView(r)
	var nodeFindings []report.Finding
	for _, f := range r.Findings {
		if s := f.Suppressed; s != nil {
			if !o.ShowSuppressed {
				continue
			}
			f.Message += fmt.Sprintf(" [suppressed %s: %s]", suppressionKind(s.Kind), s.Justification)
		}
		if f.Pos == nil {
			nodeFindings = append(nodeFindings, f)
			continue
		}
		p.printf("%s: %s %s\n", f.Pos, p.paint.severity(f.Severity, string(f.Rule)), f.Message)
	}
	section := func() {
		if p.n > 0 {
			p.printf("\n")
		}
	}
	if hasSites(r.Uses) {
		section()
		writeSites(p, r.Uses)
	}
	if r.Scan != nil {
		section()
		writeScan(p, r.Scan)
	}
	if len(r.Conform) > 0 {
		section()
		writeConform(p, r.Conform)
	}
	if r.Drill != nil {
		section()
		writeDrill(p, r.Drill)
	}
	if len(r.Nodes) > 0 || len(nodeFindings) > 0 || r.Verdict != nil {
		section()
		writeFleet(p, r, v, nodeFindings)
	}
	if r.Verdict != nil && v.Plan != nil {
		section()
		writePlan(p, v.Plan)
	}
	if r.Since != nil {
		section()
		writeComparison(p, r.Since)
	}
	if r.Scan != nil || len(r.Conform) > 0 {
		section()
		p.printf("%s\n", fleetExitMeaning(r))
	}
	if len(r.Errors) > 0 {
		section()
		writeErrors(p, r.Errors)
	}
	return p.err
}

// WriteErrors writes a run's errors as go vet does: each place's messages
// under a "# where" line. The text report ends with them; vet prints them
// on stderr when its report is not text on stdout.
func WriteErrors(w io.Writer, errs []report.Error) error {
	p := &errWriter{w: w}
	writeErrors(p, errs)
	return p.err
}

func writeErrors(p *errWriter, errs []report.Error) {
	where := ""
	for _, e := range errs {
		if e.Where != where {
			p.printf("# %s\n", report.Escape(e.Where))
			where = e.Where
		}
		p.printf("%s\n", report.EscapeLines(e.Message))
	}
}

func hasSites(uses []report.Use) bool {
	for _, u := range uses {
		if len(u.Sites) > 0 {
			return true
		}
	}
	return false
}

func writeSites(p *errWriter, uses []report.Use) {
	p.printf("The code relies on:\n")
	for _, u := range uses {
		for _, s := range u.Sites {
			p.printf("  %-8s %s (%s)\n", u.Command, s.Pos, s.What)
		}
	}
}

// writeFleet is the probe's view (written for `lockaudit probe` and shared
// by every command that reads nodes): what was found, a node table, notes,
// the node findings, and the verdict explained for someone who has not read
// the code.
func writeFleet(p *errWriter, run *report.Run, v *view, findings []report.Finding) {
	if len(run.Nodes) > 0 {
		writeTopology(p, run)
		writeNodes(p, run.Nodes)
	}
	if len(findings) > 0 {
		if len(run.Nodes) > 0 {
			p.printf("\n")
		}
		p.printf("Findings (lockaudit explain RULE tells more):\n")
		for _, g := range groupInfo(findings) {
			sev := fmt.Sprintf("%-7s", g.Severity)
			p.printf("  %s %s %s  %s\n", g.Rule, p.paint.severity(g.Severity, sev), strings.Join(g.nodes, ", "), g.Message)
		}
	}
	if run.Verdict != nil {
		if len(run.Nodes) > 0 || len(findings) > 0 {
			p.printf("\n")
		}
		writeVerdict(p, v)
	}
}

// writeTopology is the fleet's line: its topology and nodes by role, when
// it was read, and the commands relied on and where they come from.
func writeTopology(p *errWriter, run *report.Run) {
	counts := map[string]int{}
	for _, n := range run.Nodes {
		counts[n.Role]++
	}
	var parts []string
	for _, r := range []string{"primary", "replica", "sentinel", "unknown"} {
		if c := counts[r]; c > 0 {
			parts = append(parts, report.Plural(c, r))
		}
	}
	p.printf("Topology: %s (%s)", run.Topology, strings.Join(parts, ", "))
	if w := run.Probed; w != nil {
		p.printf(", read %s to %s", w.Start, w.End)
	}
	p.printf(".")
	var uses []string
	for _, u := range run.Uses {
		uses = append(uses, u.Command.String())
	}
	if len(uses) > 0 {
		switch report.UsesFrom(run) {
		case report.UsesAssumed:
			p.printf(" Assumed (no code analysed, no -uses): the code relies on %s, the native path of the fleet's flavor.", strings.Join(uses, ", "))
		case report.UsesNamed:
			p.printf(" Relied on (-uses): %s.", strings.Join(uses, ", "))
		default:
			p.printf(" The code relies on: %s.", strings.Join(uses, ", "))
		}
	}
	p.printf("\n\n")
}

// writeNodes is the node table and then the nodes' notes.
func writeNodes(p *errWriter, nodes []report.Node) {
	t := NewTable(p)
	t.Header("ADDRESS", "ROLE", "PROMOTABLE", "SERVER", "LUA", "DELIFEQ", "DELEX", "SET IFEQ", "KEY CONFIG")
	for _, n := range nodes {
		if err := t.Append(n.Addr, roleCell(n), n.Promotable.String(), serverCell(n), dataCell(n, n.Lua), dataCell(n, n.DELIFEQ), dataCell(n, n.DELEX), dataCell(n, n.SetIFEQ), keyConfig(n)); err != nil && p.err == nil {
			p.err = err
		}
	}
	if err := t.Render(); err != nil && p.err == nil {
		p.err = err
	}
	var notes []string
	for _, n := range nodes {
		for _, note := range n.Notes {
			notes = append(notes, n.Addr+": "+note)
		}
	}
	if len(notes) > 0 {
		p.printf("\nNotes:\n")
		for _, s := range notes {
			p.printf("  %s\n", s)
		}
	}
}

// writeVerdict prints the view's verdict: each path's word, whether the
// code relies on it, what it means, and its reasons (only the notes when
// the path is good), then what the exit status says.
func writeVerdict(p *errWriter, v *view) {
	p.printf("Verdict:\n")
	for _, pv := range v.Verdicts {
		mark := ""
		if pv.ReliedOn {
			mark = " (your code relies on this)"
			if pv.From != report.UsesFromCode {
				mark = " (" + strings.ToLower(pv.ReliedText()) + ")"
			}
		}
		p.printf("  %s: %s%s\n", pv.Label(), p.paint.class(pv.Class, pv.Word), mark)
		p.printf("    %s\n", pv.Meaning)
		for _, l := range pv.Shown() {
			prefix := "-"
			if l.Note() {
				prefix = "note:"
			}
			p.printf("    %s %s\n", prefix, l.Detail)
		}
	}
	if v.Legacy {
		p.printf("  Reasons, as the run recorded them:\n")
		for _, r := range v.Reasons {
			p.printf("    - %s\n", r)
		}
	}
	p.printf("\n%s\n", exitMeaning(v.ExitCode, v.FailOn))
}

func exitMeaning(code int, failOn string) string {
	switch code {
	case report.ExitOK:
		return "Exit status 0: every verdict the code relies on is safe."
	case report.ExitFindings:
		return "Exit status 3: a verdict the code relies on is unsafe, or a finding fails the run (" + failingFindings(failOn) + ")."
	case report.ExitUnknown:
		return "Exit status 4: evidence is missing for a verdict the code relies on; fix what LA208 names and probe again."
	case report.ExitFailed:
		return "Exit status 1: the run is incomplete (see the errors)."
	}
	return "Exit status " + strconv.Itoa(code) + "."
}

// failingFindings says which findings fail a run under its gate.
func failingFindings(failOn string) string {
	switch failOn {
	case report.FailOnError:
		return "an error; -fail-on error"
	case report.FailOnWarning:
		return "a warning or an error; -fail-on warning"
	case report.FailOnInfo:
		return "any finding; -fail-on info"
	}
	return "a code warning or error, a node error"
}

func roleCell(n report.Node) string {
	s := n.Role
	if n.Hidden {
		s += " (hidden)"
	}
	return s
}

func serverCell(n report.Node) string {
	if n.Version == "" {
		for _, e := range n.Errors {
			if strings.HasPrefix(e, "connection: ") { // the probe's FactConnect
				return "unreachable"
			}
		}
		if len(n.Errors) > 0 {
			return "version unread"
		}
		return "?"
	}
	name := n.Server
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return name + " " + n.Version
}

// dataCell shows a node answer; a Sentinel holds no data, so "-".
func dataCell(n report.Node, a report.Answer) string {
	if n.Role == report.RoleSentinel {
		return "-"
	}
	return a.String()
}

// keyConfig summarises the settings that matter for locks.
func keyConfig(n report.Node) string {
	if n.Role == "sentinel" {
		return "-"
	}
	c := n.Config
	if len(c) == 0 {
		for _, e := range n.Errors {
			if strings.HasPrefix(e, "CONFIG GET") {
				return "CONFIG unreadable"
			}
		}
		return "?"
	}
	var parts []string
	switch {
	case c["appendonly"] == "yes":
		parts = append(parts, "aof fsync "+c["appendfsync"])
	case c["appendonly"] != "":
		parts = append(parts, "aof no")
	}
	if v := c["min-replicas-to-write"]; v != "" && n.Role == "primary" {
		parts = append(parts, "min-replicas "+v)
	}
	if mm := c["maxmemory"]; mm != "" && mm != "0" {
		parts = append(parts, "maxmemory "+bytesize(mm)+" "+c["maxmemory-policy"])
	}
	if n.Role == "replica" {
		if v := c["replica-priority"]; v != "" {
			parts = append(parts, "priority "+v)
		}
		if c["replica-announced"] == "no" {
			parts = append(parts, "not announced")
		}
		if c["cluster-replica-no-failover"] == "yes" {
			parts = append(parts, "nofailover")
		}
	}
	return strings.Join(parts, ", ")
}

func bytesize(s string) string {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB"} {
		if n < 1024 || u == "TiB" {
			return strings.TrimSuffix(strconv.FormatFloat(n, 'f', 1, 64), ".0") + u
		}
		n /= 1024
	}
	return s
}

// NewTable returns the table style every text output uses: ASCII borders,
// left-aligned, no wrapping and headers as given, so output is the same on
// every terminal and stable in golden files.
func NewTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoFormat(tw.Off),
	)
}

// nodeFinding is one line of the node findings: a finding, and every
// node it was found on when it is an info finding several nodes share.
type nodeFinding struct {
	report.Finding
	nodes []string
}

// groupInfo gives each info finding one line for all the nodes it was
// found on with the same message ("Locks do not survive a restart:
// appendonly no" on every node of a cluster is one line naming them);
// warnings and errors keep a line per node. The order is the findings'.
func groupInfo(fs []report.Finding) []nodeFinding {
	var out []nodeFinding
	at := map[[2]string]int{}
	for _, f := range fs {
		key := [2]string{string(f.Rule), f.Message}
		if i, ok := at[key]; ok && f.Severity == rules.Info && out[i].Severity == rules.Info {
			out[i].nodes = append(out[i].nodes, f.Node)
			continue
		}
		if f.Severity == rules.Info {
			at[key] = len(out)
		}
		out = append(out, nodeFinding{f, []string{f.Node}})
	}
	return out
}

// paint colours a text report for a terminal (Options.Color): severities
// and verdict words, never inside a table (the columns would shift).
type paint bool

// ANSI colours.
const (
	ansiRed    = "31"
	ansiGreen  = "32"
	ansiYellow = "33"
	ansiCyan   = "36"
)

func (c paint) wrap(code, s string) string {
	if !c {
		return s
	}
	return "\033[" + code + "m" + s + "\033[0m"
}

// severity colours text by a finding's severity: error red, warning
// yellow, info cyan.
func (c paint) severity(sev rules.Severity, text string) string {
	switch sev {
	case rules.Error:
		return c.wrap(ansiRed, text)
	case rules.Warning:
		return c.wrap(ansiYellow, text)
	}
	return c.wrap(ansiCyan, text)
}

// class colours a verdict word by its class: safe green, unsafe red,
// unknown yellow.
func (c paint) class(class, text string) string {
	switch class {
	case "safe":
		return c.wrap(ansiGreen, text)
	case "unsafe":
		return c.wrap(ansiRed, text)
	}
	return c.wrap(ansiYellow, text)
}

// errWriter keeps the first write error and counts bytes written.
type errWriter struct {
	w     io.Writer
	n     int
	err   error
	paint paint
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err != nil {
		return
	}
	n, err := fmt.Fprintf(e.w, format, args...)
	e.n += n
	e.err = err
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.n += n
	e.err = err
	return n, err
}
