package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// writeScan prints the scan's coverage: one line per shard.
func writeScan(p *errWriter, s *report.Scan) {
	p.printf("Scan: lock keys matching %s", strings.Join(s.Patterns, " or "))
	if s.MaxLease != "" {
		p.printf("; maximum lease %s", s.MaxLease)
	}
	rate := "no rate limit"
	if s.Rate > 0 {
		rate = strconv.Itoa(s.Rate) + " keys/s per node"
	}
	p.printf(" (COUNT %d, %s).\n\n", s.Count, rate)
	t := NewTable(p)
	t.Header("PRIMARY", "READ FROM", "KEYS", "LOCK KEYS", "FINDINGS", "DATABASES", "STATUS")
	for _, sh := range s.Shards {
		from := sh.ReadFrom
		if from != "" && sh.Role != "" {
			from += " (" + sh.Role + ")"
		}
		if from == "" {
			from = "-"
		}
		status := "complete"
		if !sh.Complete {
			status = "INCOMPLETE"
		}
		if sh.Note != "" {
			status += ": " + sh.Note
		}
		dbs := databaseText(sh)
		if dbs == "" {
			dbs = "-"
		}
		if err := t.Append(sh.Primary, from, strconv.FormatInt(sh.Keys, 10), strconv.FormatInt(sh.LockKeys, 10), strconv.Itoa(sh.Findings), dbs, status); err != nil && p.err == nil {
			p.err = err
		}
	}
	if err := t.Render(); err != nil && p.err == nil {
		p.err = err
	}
}

// conformGotWidth is where the table cuts a reply (in runes); the whole
// reply is in the details under the table.
const conformGotWidth = 40

// writeConform prints one table per node — step number, step, reply and
// status, so it fits 120 columns — and under it each step's command and
// what was expected (and the whole reply when the table cut it).
func writeConform(p *errWriter, nodes []report.ConformNode) {
	for i, n := range nodes {
		if i > 0 {
			p.printf("\n")
		}
		title := n.Role + " " + n.Node
		if n.Server != "" {
			title += " (" + n.Server + ")"
		}
		if n.Primary != "" {
			title += ", replica of " + n.Primary
		}
		p.printf("%s:\n", title)
		if n.Error != "" {
			p.printf("  not fully tested: %s\n", n.Error)
		}
		if len(n.Steps) == 0 {
			continue
		}
		t := NewTable(p)
		t.Header("#", "STEP", "GOT", "STATUS")
		for j, s := range n.Steps {
			if err := t.Append(strconv.Itoa(j+1), s.Step, cut(oneLine(s.Got), conformGotWidth), strings.ToUpper(s.Status)); err != nil && p.err == nil {
				p.err = err
			}
		}
		if err := t.Render(); err != nil && p.err == nil {
			p.err = err
		}
		for j, s := range n.Steps {
			d := fmt.Sprintf("%d. %s: expected %s", j+1, s.Command, oneLine(s.Expected))
			if got := oneLine(s.Got); got != cut(got, conformGotWidth) {
				d += "; got " + got
			}
			if s.Advice != "" {
				d += "; " + oneLine(s.Advice)
			}
			p.printf("%s\n", wrapAt(d, "  ", "     ", 120))
		}
	}
}

// cut shortens s to n runes, ending with "…" when it cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// wrapAt wraps s at width columns: the first line under first, the rest
// under rest. A word longer than a line (a server's reply can be one) is
// split.
func wrapAt(s, first, rest string, width int) string {
	var words []string
	room := width - len(rest)
	for _, w := range strings.Fields(s) {
		for r := []rune(w); len(r) > 0; {
			n := min(len(r), room)
			words = append(words, string(r[:n]))
			r = r[n:]
		}
	}
	var lines []string
	line, indent := first, first
	for _, w := range words {
		if len(line) > len(indent) && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line, indent = rest, rest
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}

// conformCounts counts the steps by status, for the closing line.
func conformCounts(nodes []report.ConformNode) string {
	counts := map[string]int{}
	for _, n := range nodes {
		for _, s := range n.Steps {
			counts[s.Status]++
		}
	}
	var parts []string
	for _, st := range []string{report.StepPass, report.StepFail, report.StepMissing, report.StepError, report.StepSkipped} {
		if c := counts[st]; c > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c, st))
		}
	}
	if len(parts) == 0 {
		return "no step ran"
	}
	return strings.Join(parts, ", ")
}

// fleetExitMeaning closes a scan or conform report: what the exit status
// says.
func fleetExitMeaning(r *report.Run) string {
	code := report.ExitCode(r)
	what := "scan"
	if r.Scan == nil {
		what = "conformance test (" + conformCounts(r.Conform) + ")"
	}
	switch code {
	case report.ExitOK:
		return "Exit status 0: the " + what + " found nothing wrong."
	case report.ExitFindings:
		return "Exit status 3: the " + what + " found an error (see the findings)."
	case report.ExitUnknown:
		return "Exit status 4: the " + what + " did not read everything (see INCOMPLETE / not fully tested), and unknown is never clean."
	case report.ExitFailed:
		return "Exit status 1: the " + what + " could not run (see the errors)."
	}
	return "Exit status " + strconv.Itoa(code) + "."
}

// databaseText lists a shard's databases for reports: "db0: 300 keys, 6
// lock keys, 2 findings; db3: ..."; "" when it read none.
func databaseText(sh report.ScanShard) string {
	var parts []string
	for _, d := range sh.Databases {
		s := fmt.Sprintf("db%d: %s, %s, %s", d.DB, report.Plural(int(d.Keys), "key"), report.Plural(int(d.LockKeys), "lock key"), report.Plural(d.Findings, "finding"))
		if !d.Complete {
			s += " (INCOMPLETE"
			if d.Note != "" {
				s += ": " + d.Note
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
