// Package finding holds the leaf types of lockaudit's model that the code
// half produces: findings, positions, the commands the code relies on, and
// the errors that make a run incomplete. The analyzers (analyzers/...) build
// these without depending on report, whose renderers pull in goldmark,
// html/template and tablewriter; report names them as its own (report.Finding
// is finding.Finding).
package finding

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// Error is a failure that made the run incomplete (exit 1).
type Error struct {
	Where   string `json:"where"` // package path, node address or file
	Message string `json:"message"`
}

// Position is a source position. File is slash-separated and relative to the
// module root, so reports are the same on every machine.
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func (p Position) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Compare orders positions by file, line and column.
func (p Position) Compare(q Position) int {
	return cmp.Or(strings.Compare(p.File, q.File), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Col, q.Col))
}

// Compare orders sites by position, then by what they do.
func (s Site) Compare(t Site) int {
	return cmp.Or(s.Pos.Compare(t.Pos), strings.Compare(s.What, t.What))
}

// Finding is one problem, in code (Pos set) or on a node (Node set).
type Finding struct {
	// ID is the finding's stable reference, "LA103-3f9c" (report's findingid.go).
	ID       string         `json:"id,omitempty"`
	Rule     rules.ID       `json:"rule"`
	Severity rules.Severity `json:"severity"`
	Message  string         `json:"message"`
	Pos      *Position      `json:"pos,omitempty"`
	Source   string         `json:"source,omitempty"` // the source line, for reports
	// Func is the function declaration a code finding is in ("Reserve",
	// "Locker.Release"; "" at package level): comparisons match a
	// finding whose line was edited within its function.
	Func string `json:"func,omitempty"`
	Node string `json:"node,omitempty"` // node address, for probe findings
	// Subject is what on the node a node finding is about, the same from
	// run to run: a command (delifeq), a fact (CONFIG GET), a key
	// (db3/lock:orders:42), a conform step. Comparisons match node findings
	// by rule, node and subject.
	Subject    string       `json:"subject,omitempty"`
	Suppressed *Suppression `json:"suppressed,omitempty"`
	// Autofix: `lockaudit vet -fix` fixes it (its suggested fix applies).
	Autofix bool `json:"autofix,omitempty"`

	// Derived when a run is rendered (report's prepared), never read back:
	// the risk rating, and the owner and effort the engagement assigns.
	Risk   *Risk  `json:"risk,omitempty"`
	Owner  string `json:"owner,omitempty"`
	Effort string `json:"effort,omitempty"`
}

// Risk rates a finding: the rule's impact (from the catalog's severity:
// an error can give a lock two holders or none, a warning weakens it, an
// info only informs) times how exposed the fleet is to the failure the
// finding lets through (a failover, a restart, a node taking over). The
// matrix is documented in docs/report.md#risk; RiskOf is its one home.
type Risk struct {
	Impact   string `json:"impact"`   // high, medium, low
	Exposure string `json:"exposure"` // high, medium, low
	// Rating is the matrix's cell: critical, high, medium, low.
	Rating string `json:"rating"`
	// Why says where the exposure comes from, in a reader's words.
	Why string `json:"why"`
}

// Where is "file:line" of a code finding, "?" without a position (for
// messages that point at another finding).
func (f Finding) Where() string {
	if f.Pos == nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", f.Pos.File, f.Pos.Line)
}

// Location is how a finding says where it is: file:line:col or the node.
func (f Finding) Location() string {
	if f.Pos != nil {
		return f.Pos.String()
	}
	if f.Node != "" {
		return f.Node
	}
	return "(no location)"
}

// Suppression records why a finding does not count. Kind follows SARIF:
// "inSource" for //lockaudit:ignore directives, "external" for a baseline or
// the config file.
type Suppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// Use is a command (family) the code relies on, with where it does.
type Use struct {
	Command rules.Command `json:"command"`
	Sites   []Site        `json:"sites,omitempty"`
}

// Site is one place in code that relies on a command.
type Site struct {
	Pos  Position `json:"pos"`
	What string   `json:"what"` // e.g. "DELIFEQ release", "redsync Unlock (Lua)"
}

// Sort puts findings in Less's order, stably.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(fs[i], fs[j]) })
}

// Less is report.Run.Sort's order: code findings by file, line, column
// and rule, then node findings by node and rule.
func Less(a, b Finding) bool {
	if (a.Pos == nil) != (b.Pos == nil) {
		return a.Pos != nil
	}
	if a.Pos != nil {
		if c := a.Pos.Compare(*b.Pos); c != 0 {
			return c < 0
		}
	} else if a.Node != b.Node {
		return a.Node < b.Node
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	return a.Message < b.Message
}

// Code is what one run of the analyzers produced (analyzers/driver): the
// code half of a report.Run, which report.Run.SetCode copies in.
type Code struct {
	Packages           []string  // patterns analysed
	Rules              []string  // IDs of the rules that ran, sorted
	Errors             []Error   // packages that failed to load or analyse
	Findings           []Finding // sorted by Less
	Uses               []Use     // commands the code relies on (when analyzers/uses ran)
	AnalyzedPackages   []string  // import paths analysed, sorted
	UnanalyzedPackages []string  // matched but not analysed, sorted
}
