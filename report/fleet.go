package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// Scan is what `lockaudit scan` read: each primary's data, from the node it
// was read on. A shard not read to the end makes the run's answer unknown
// (ExitCode 4): a lock key there may be permanent.
type Scan struct {
	Patterns []string    `json:"patterns"`            // lock-key patterns (regular expressions)
	MaxLease string      `json:"max_lease,omitempty"` // LA212 threshold, e.g. "10m0s"; "" not checked
	Rate     int         `json:"rate"`                // keys per second per node; 0 no limit
	Count    int         `json:"count"`               // SCAN COUNT
	Shards   []ScanShard `json:"shards"`
}

// ScanShard is one primary's data: the totals over its databases, and
// each database.
type ScanShard struct {
	Primary  string `json:"primary"`
	ReadFrom string `json:"read_from,omitempty"` // the node SCANned: a replica when one was usable
	Role     string `json:"role,omitempty"`      // ReadFrom's role
	Keys     int64  `json:"keys"`                // keys SCAN returned
	LockKeys int64  `json:"lock_keys"`           // of which matched a lock-key pattern
	Findings int    `json:"findings"`            // LA211/LA212 findings (reported or over the limit)
	Complete bool   `json:"complete"`            // every database INFO keyspace lists was read to cursor 0
	Note     string `json:"note,omitempty"`      // why not complete, or why not the replica
	// Databases are the databases read (INFO keyspace lists those that
	// hold keys), in order.
	Databases []ScanDB `json:"databases,omitempty"`
}

// ScanDB is one database of a shard.
type ScanDB struct {
	DB       int    `json:"db"`
	Keys     int64  `json:"keys"`
	LockKeys int64  `json:"lock_keys"`
	Findings int    `json:"findings"`
	Complete bool   `json:"complete"`
	Note     string `json:"note,omitempty"`
}

// DatabaseText lists a shard's databases for reports: "db0: 300 keys, 6
// lock keys, 2 findings; db3: ..."; "" when it read none.
func (sh ScanShard) DatabaseText() string {
	var parts []string
	for _, d := range sh.Databases {
		s := fmt.Sprintf("db%d: %s, %s, %s", d.DB, plural(int(d.Keys), "key"), plural(int(d.LockKeys), "lock key"), plural(d.Findings, "finding"))
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

// ConformNode is `lockaudit conform`'s table for one node: on a primary the
// steps it ran, on a replica what it read after each write (and what it
// lacks should it be promoted).
type ConformNode struct {
	Node    string        `json:"node"`
	Role    string        `json:"role"`
	Server  string        `json:"server,omitempty"` // "Valkey 9.1.2"
	Primary string        `json:"primary,omitempty"`
	Steps   []ConformStep `json:"steps"`
	Error   string        `json:"error,omitempty"` // the node could not be (fully) tested
}

// ConformStep is one row: what was sent, what the documentation says it
// answers, and what the node answered. Its typed fields say what the row
// is (Kind), which primary step a replica's row follows (After), which
// command relied on the step exercises (Uses), and, where the server
// lacks it, what works there instead (Advice, from the capability table).
type ConformStep struct {
	Step     string `json:"step"`
	Command  string `json:"command"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Status   string `json:"status"` // pass, fail, missing, skipped, error

	Kind   StepKind      `json:"kind,omitempty"`
	After  string        `json:"after,omitempty"`
	Uses   rules.Command `json:"uses,omitempty"`
	Advice string        `json:"advice,omitempty"`
}

// StepKind says what a conform row is. Its zero value is a row of a run
// written before kinds (read as a step run).
type StepKind uint8

const (
	StepRun        StepKind = iota + 1 // a step of the lock pattern, run on a primary
	StepSetup                          // the scratch keys, a fresh lock a step needs, the cleanup
	StepReplicated                     // what a replica holds after a primary step
	StepIfPromoted                     // what a replica lacks should it be promoted (read by the probe)
)

var stepKindEnum = enum[StepKind]{"step kind", []string{StepRun: "run", StepSetup: "setup", StepReplicated: "replicated", StepIfPromoted: "if_promoted"}}

// Valid reports whether k is one of the kinds.
func (k StepKind) Valid() bool { return stepKindEnum.valid(k) }

func (k StepKind) String() string                { return stepKindEnum.str(k) }
func (k StepKind) MarshalText() ([]byte, error)  { return stepKindEnum.marshal(k) }
func (k *StepKind) UnmarshalText(b []byte) error { return stepKindEnum.unmarshal(b, k) }

// Conformance step statuses. Fail and missing are findings (LA213); error
// (no answer) leaves the node unknown.
const (
	StepPass    = "pass"
	StepFail    = "fail"
	StepMissing = "missing"
	StepSkipped = "skipped"
	StepError   = "error"
)

// incomplete reports whether a scan or conformance test did not read all
// it had to, which makes the answer unknown.
func (r *Run) incomplete() bool {
	if r.Scan != nil {
		for _, s := range r.Scan.Shards {
			if !s.Complete {
				return true
			}
		}
	}
	for _, n := range r.Conform {
		if n.Error != "" {
			return true
		}
		for _, s := range n.Steps {
			if s.Status == StepError {
				return true
			}
		}
	}
	return false
}

// writeScan prints the scan's coverage: one line per shard.
func writeScan(p *errWriter, s *Scan) {
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
		dbs := sh.DatabaseText()
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
func writeConform(p *errWriter, nodes []ConformNode) {
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
func conformCounts(nodes []ConformNode) string {
	counts := map[string]int{}
	for _, n := range nodes {
		for _, s := range n.Steps {
			counts[s.Status]++
		}
	}
	var parts []string
	for _, st := range []string{StepPass, StepFail, StepMissing, StepError, StepSkipped} {
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
func fleetExitMeaning(r *Run) string {
	code := ExitCode(r)
	what := "scan"
	if r.Scan == nil {
		what = "conformance test (" + conformCounts(r.Conform) + ")"
	}
	switch code {
	case ExitOK:
		return "Exit status 0: the " + what + " found nothing wrong."
	case ExitFindings:
		return "Exit status 3: the " + what + " found an error (see the findings)."
	case ExitUnknown:
		return "Exit status 4: the " + what + " did not read everything (see INCOMPLETE / not fully tested), and unknown is never clean."
	case ExitFailed:
		return "Exit status 1: the " + what + " could not run (see the errors)."
	}
	return "Exit status " + strconv.Itoa(code) + "."
}
