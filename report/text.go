package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

func init() { registerFormat("text", renderText) }

// renderText is the one text renderer for every command. It prints the
// parts of a Run that are present, in this order:
//
//  1. code findings, one per line, `file:line:col: LA103 message`
//     (the go vet form editors and CI annotators parse);
//  2. the commands the code relies on (audit, preflight);
//  3. the node table (probe, audit, preflight);
//  4. node findings, `node ADDR: LA201 message`;
//  5. the verdict and its reasons;
//  6. errors that made the run incomplete, in go vet's `# package` form.
//
// Suppressed findings are not printed (Summary counts them). Nothing here
// decides the exit status; ExitCode does.
func renderText(w io.Writer, r *Run) error {
	tw := &errWriter{w: w}
	var nodeFindings []Finding
	for _, f := range r.Active() {
		if f.Pos == nil {
			nodeFindings = append(nodeFindings, f)
			continue
		}
		tw.printf("%s: %s %s\n", f.Pos, f.Rule, f.Message)
	}
	section := func() {
		if tw.n > 0 {
			tw.printf("\n")
		}
	}
	if len(r.Uses) > 0 {
		section()
		writeUses(tw, r.Uses)
	}
	if len(r.Nodes) > 0 {
		section()
		if r.Topology != "" {
			tw.printf("Nodes (%s):\n", r.Topology)
		} else {
			tw.printf("Nodes:\n")
		}
		if tw.err == nil {
			tw.err = NodeTable(tw, r.Nodes)
		}
	}
	if len(nodeFindings) > 0 {
		section()
		for _, f := range nodeFindings {
			tw.printf("node %s: %s %s\n", f.Node, f.Rule, f.Message)
		}
	}
	if v := r.Verdict; v != nil {
		section()
		tw.printf("Verdict: native release %s, native extend %s, Lua %s\n", v.NativeRelease, v.NativeExtend, v.Lua)
		for _, reason := range v.Reasons {
			tw.printf("  - %s\n", reason)
		}
	}
	if len(r.Errors) > 0 {
		section()
		where := ""
		for _, e := range r.Errors {
			if e.Where != where {
				tw.printf("# %s\n", e.Where)
				where = e.Where
			}
			tw.printf("%s\n", e.Message)
		}
	}
	return tw.err
}

func writeUses(w *errWriter, uses []Use) {
	w.printf("The code relies on:\n")
	for _, u := range uses {
		if len(u.Sites) == 0 {
			w.printf("  %s\n", u.Command)
			continue
		}
		for _, s := range u.Sites {
			w.printf("  %-8s %s (%s)\n", u.Command, s.Pos, s.What)
		}
	}
}

// NodeTable writes the per-node table (ASCII, one row per node) that the
// text format shows; probe and audit progress output may reuse it.
func NodeTable(w io.Writer, nodes []Node) error {
	t := NewTable(w)
	t.Header("ADDR", "ROLE", "PROMOTABLE", "SERVER", "VERSION", "LUA", "DELIFEQ", "DELEX", "SET IFEQ", "NOTES")
	for _, n := range nodes {
		version := n.Version
		if version == "" {
			version = "?"
		}
		notes := append([]string(nil), n.Notes...)
		notes = append(notes, n.Errors...)
		if n.Declared {
			notes = append([]string{"declared"}, notes...)
		}
		if n.Hidden {
			notes = append([]string{"hidden replica"}, notes...)
		}
		if err := t.Append(n.Addr, n.Role, n.Promotable, n.Server, version, n.Lua, n.DELIFEQ, n.DELEX, n.SetIFEQ, strings.Join(notes, "; ")); err != nil {
			return err
		}
	}
	return t.Render()
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

// Summary is the one-line account of a run that commands print on stderr,
// e.g. "7 findings (4 errors, 3 warnings), 1 suppressed; incomplete: 2
// errors". It reads only the Run.
func Summary(r *Run) string {
	active := r.Active()
	var b strings.Builder
	switch len(active) {
	case 0:
		b.WriteString("no findings")
	case 1:
		b.WriteString("1 finding")
	default:
		fmt.Fprintf(&b, "%d findings", len(active))
	}
	if len(active) > 0 {
		bySev := map[string]int{}
		for _, f := range active {
			bySev[f.Severity.String()]++
		}
		var parts []string
		for _, s := range []string{"error", "warning", "info"} {
			if n := bySev[s]; n > 0 {
				parts = append(parts, countOf(n, s))
			}
		}
		var other []string
		for s, n := range bySev {
			if s != "error" && s != "warning" && s != "info" {
				other = append(other, countOf(n, s))
			}
		}
		sort.Strings(other)
		fmt.Fprintf(&b, " (%s)", strings.Join(append(parts, other...), ", "))
	}
	if n := len(r.Findings) - len(active); n > 0 {
		fmt.Fprintf(&b, ", %d suppressed", n)
	}
	if n := len(r.Errors); n > 0 {
		fmt.Fprintf(&b, "; incomplete run: %s", countOf(n, "error"))
	}
	return b.String()
}

func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// errWriter keeps the first write error and counts bytes written.
type errWriter struct {
	w   io.Writer
	n   int
	err error
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
