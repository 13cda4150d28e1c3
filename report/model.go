// Package report holds the one model of everything a lockaudit run produces
// (code findings, node facts, probe findings, the verdict, the commands the
// code relies on): its validation, its JSON form (written and read), the
// comparison of two runs, and the exit status, decided once from the Run
// by ExitCode. The renderers around it, and every sentence they print,
// are in report/render, which only the command imports; they only read a
// Run.
package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// SchemaVersion is the version of the JSON form of Run that lockaudit
// writes. DecodeRun also reads schema_version 1 and 2 (see docs/json.md).
const SchemaVersion = 3

// Run is the result of one lockaudit command.
type Run struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          Tool   `json:"tool"`
	Command       string `json:"command"`          // vet, probe, audit, preflight, scan, conform, drill
	Target        string `json:"target,omitempty"` // -target of vet/preflight, e.g. valkey-9.0
	Time          string `json:"time,omitempty"`   // RFC 3339, set by audit/preflight only
	// FailOn is the run's gate (-fail-on): the lowest severity of an
	// active finding that fails it, "error", "warning" or "info"; empty
	// is the default (see ExitCode). Saved, so render -exit-status and
	// every report state the status the command exited with.
	FailOn string `json:"fail_on,omitempty"`

	// What the report is about: the consultant's engagement (flags and the
	// config file's report: section), the audited code's module and
	// revision, and when the probe read the fleet. None of it changes a
	// verdict; all of it is in the JSON form, so render reproduces it.
	Engagement *Engagement `json:"engagement,omitempty"`
	Source     *Source     `json:"source,omitempty"`
	Probed     *Window     `json:"probed,omitempty"`

	// Code half.
	Packages []string  `json:"packages,omitempty"` // patterns analysed; set exactly when the code half ran
	Rules    []string  `json:"rules,omitempty"`    // IDs of the rules that ran, sorted (a clean result means something only for these)
	Errors   []Error   `json:"errors,omitempty"`   // packages that failed to load or analyse
	Findings []Finding `json:"findings"`           // code and node findings, sorted by Sort
	Uses     []Use     `json:"uses,omitempty"`     // commands the code relies on
	// UsesFrom says where Uses come from: the code, named by -uses (or
	// probe.uses), or assumed because neither said (probe without code).
	UsesFrom UsesSource `json:"uses_from,omitempty"`
	// TargetFrom says which releases the code was judged at (Target) and
	// why: -target, the config file, the fleet, or the default.
	TargetFrom *TargetChoice `json:"target_from,omitempty"`

	// AnalyzedPackages are the import paths of the packages the analyzers
	// ran on, sorted: what the patterns matched and loaded (a package that
	// did not load is in Errors instead).
	AnalyzedPackages []string `json:"analyzed_packages,omitempty"`
	// UnanalyzedPackages are the packages the patterns matched that the
	// analyzers did not run on (they did not load, or import one that did
	// not), sorted: with AnalyzedPackages, how much of the code a partial
	// run covers (Coverage).
	UnanalyzedPackages []string `json:"unanalyzed_packages,omitempty"`

	// Fleet half.
	Topology string   `json:"topology,omitempty"` // standalone, replication, sentinel, cluster, declared
	Nodes    []Node   `json:"nodes,omitempty"`
	Verdict  *Verdict `json:"verdict,omitempty"`

	// Scan is lockaudit scan's coverage; Conform is lockaudit conform's
	// table per node (see fleet.go).
	Scan    *Scan         `json:"scan,omitempty"`
	Conform []ConformNode `json:"conform,omitempty"`

	// Plan is the remediation plan, derived from the rest of the run
	// (PlanOf): the JSON form writes it for scripts and DecodeRun checks
	// that it follows from the run; no renderer reads it back.
	Plan *Plan `json:"plan,omitempty"`
	// Since compares this run with an earlier one (audit -since OLD.json).
	Since *Comparison `json:"since,omitempty"`
	// Drill is the failover drill's record (lockaudit drill), or the one
	// audit -drill attached as evidence (drill.go).
	Drill *Drill `json:"drill,omitempty"`
}

// Engagement is who and what an audit report is for, as the consultant
// says it. Notes are Markdown, shown safely (no raw HTML, no script links).
type Engagement struct {
	Title       string `json:"title,omitempty"`
	Client      string `json:"client,omitempty"`
	System      string `json:"system,omitempty"`
	Environment string `json:"environment,omitempty"`
	Author      string `json:"author,omitempty"`
	Notes       string `json:"notes,omitempty"`
	// Sign-off (signoff.go): who reviewed the report and its version.
	Reviewer string `json:"reviewer,omitempty"`
	Version  string `json:"version,omitempty"`
	// Assign gives findings an owner and an effort (assign.go).
	Assign []Assignment `json:"assign,omitempty"`
}

// Source identifies the audited code: its module and, when it is a git
// work tree, the commit (and whether the work tree had changes).
type Source struct {
	Module   string `json:"module,omitempty"`
	VCS      string `json:"vcs,omitempty"`      // "git"
	Revision string `json:"revision,omitempty"` // the commit ID
	Time     string `json:"time,omitempty"`     // the commit's time, RFC 3339
	Modified bool   `json:"modified,omitempty"` // uncommitted changes
}

// Window is when something was read: RFC 3339 times with fractions.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// WindowOf is the window from start to end, in UTC with milliseconds.
func WindowOf(start, end time.Time) *Window {
	const layout = "2006-01-02T15:04:05.000Z07:00"
	return &Window{Start: start.UTC().Format(layout), End: end.UTC().Format(layout)}
}

// UsesSource says where a run's uses come from. Its zero value is a run
// that does not say (schema 2 runs written before it): its verdict's
// FromCode tells code from named.
type UsesSource uint8

const (
	UsesFromCode UsesSource = iota + 1 // analyzers/uses found them in the code
	UsesNamed                          // probe -uses, or the config file's probe.uses
	UsesAssumed                        // neither: the native path of the fleet's flavor, assumed
)

var usesSourceEnum = enum[UsesSource]{"uses source", []string{UsesFromCode: "code", UsesNamed: "named", UsesAssumed: "assumed"}}

// Valid reports whether s is one of the sources.
func (s UsesSource) Valid() bool { return usesSourceEnum.valid(s) }

func (s UsesSource) String() string                { return usesSourceEnum.str(s) }
func (s UsesSource) MarshalText() ([]byte, error)  { return usesSourceEnum.marshal(s) }
func (s *UsesSource) UnmarshalText(b []byte) error { return usesSourceEnum.unmarshal(b, s) }

// TargetChoice is which server releases a run judged the code at, and why.
type TargetChoice struct {
	// Releases are the release lines, as -target takes them.
	Releases []string `json:"releases"`
	// Source is where they come from: -target, the config file's
	// target, the fleet read or declared, or the default.
	Source TargetSource `json:"source"`
	// Nodes, when derived from the fleet, name for each release a node
	// that can become primary and runs it ("127.0.0.1:7002 runs Valkey
	// 8.1.1").
	Nodes []TargetNode `json:"nodes,omitempty"`
	// Unknown lists the nodes that can become primary whose release was
	// not read (fleet): the releases may be newer than theirs.
	Unknown []string `json:"unknown,omitempty"`
}

// TargetNode is a node whose release sets one of a derived target's.
type TargetNode struct {
	Addr    string `json:"addr"`
	Server  string `json:"server"`
	Version string `json:"version"`
}

// TargetSource says where the releases a run judged the code at come
// from.
type TargetSource uint8

const (
	TargetFromFlag    TargetSource = iota + 1 // -target
	TargetFromConfig                          // the config file's target
	TargetFromFleet                           // derived from the fleet read or declared
	TargetFromDefault                         // none of them: the default
)

var targetSourceEnum = enum[TargetSource]{"target source", []string{TargetFromFlag: "flag", TargetFromConfig: "config", TargetFromFleet: "fleet", TargetFromDefault: "default"}}

// Valid reports whether s is one of the sources.
func (s TargetSource) Valid() bool { return targetSourceEnum.valid(s) }

func (s TargetSource) String() string                { return targetSourceEnum.str(s) }
func (s TargetSource) MarshalText() ([]byte, error)  { return targetSourceEnum.marshal(s) }
func (s *TargetSource) UnmarshalText(b []byte) error { return targetSourceEnum.unmarshal(b, s) }

// Tool identifies the producer.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// The code half's leaf types live in report/finding, which the analyzers
// import without the renderers; the model names them here.
type (
	Error       = finding.Error
	Position    = finding.Position
	Finding     = finding.Finding
	Suppression = finding.Suppression
	Use         = finding.Use
	Site        = finding.Site
)

// Node roles and servers, as Node spells them.
const (
	RolePrimary  = "primary"
	RoleReplica  = "replica"
	RoleSentinel = "sentinel"
	RoleUnknown  = "unknown"

	ServerValkey  = "valkey"
	ServerRedis   = "redis"
	ServerUnknown = "unknown"
)

// Topologies, as Run.Topology spells them.
const (
	TopologyStandalone  = "standalone"
	TopologyReplication = "replication"
	TopologySentinel    = "sentinel"
	TopologyCluster     = "cluster"
	TopologyDeclared    = "declared" // preflight: nodes come from an inventory or -target
)

// Node is what was read from (or declared about) one server.
type Node struct {
	Addr       string            `json:"addr"`
	Role       string            `json:"role"`       // primary, replica, sentinel, unknown
	Promotable Promotable        `json:"promotable"` // yes, no, manual, unknown
	Server     string            `json:"server"`     // valkey, redis, unknown
	Version    string            `json:"version"`    // "9.1.2", "" when unknown
	Lua        Answer            `json:"lua"`        // yes, no, unknown
	DELIFEQ    Answer            `json:"delifeq"`
	DELEX      Answer            `json:"delex"`
	SetIFEQ    Answer            `json:"set_ifeq"`
	Config     map[string]string `json:"config"`
	Errors     []string          `json:"errors"`
	Primary    string            `json:"primary,omitempty"` // address of its primary (replicas)
	Shard      string            `json:"shard,omitempty"`   // cluster shard ID
	Hidden     bool              `json:"hidden,omitempty"`  // replica-announced no, found via INFO replication
	Declared   bool              `json:"declared,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
	Evidence   []Evidence        `json:"evidence,omitempty"` // which command answered what
}

// Evidence is one command's answer on a node, for the audit trail.
type Evidence struct {
	Command string `json:"command"`
	Answer  string `json:"answer"`
}

// AnswerField is the JSON field of Node that holds a command's answer:
// the command's name, except set_ifeq for SET IFEQ.
func AnswerField(c rules.Command) string {
	if c == rules.UseIFEQ {
		return "set_ifeq"
	}
	return c.String()
}

// Answer is the node's answer for a command's feature.
func (n *Node) Answer(c rules.Command) Answer {
	switch c {
	case rules.UseDELIFEQ:
		return n.DELIFEQ
	case rules.UseDELEX:
		return n.DELEX
	case rules.UseIFEQ:
		return n.SetIFEQ
	case rules.UseLua:
		return n.Lua
	}
	return Unknown
}

// New returns an empty Run for a command.
func New(command, version string) *Run {
	return &Run{SchemaVersion: SchemaVersion, Tool: Tool{Name: "lockaudit", Version: version}, Command: command, Findings: []Finding{}}
}

// SetCode sets the run's code half from what the analyzers produced.
func (r *Run) SetCode(c *finding.Code) {
	r.Packages, r.Rules, r.Errors = c.Packages, c.Rules, c.Errors
	r.Findings, r.Uses = c.Findings, c.Uses
	r.AnalyzedPackages, r.UnanalyzedPackages = c.AnalyzedPackages, c.UnanalyzedPackages
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
}

// Sort puts findings in a stable order: code findings by file, line, column
// and rule, then node findings by node and rule.
func (r *Run) Sort() {
	finding.Sort(r.Findings)
}

// UsedCommands lists the commands of the run's uses, in their order.
func (r *Run) UsedCommands() []rules.Command {
	var out []rules.Command
	for _, u := range r.Uses {
		out = append(out, u.Command)
	}
	return out
}

// Active returns the findings that are not suppressed.
func (r *Run) Active() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Suppressed == nil {
			out = append(out, f)
		}
	}
	return out
}

// Coverage says how much of the matched code a partial run analysed,
// "analysed 1 of 8 packages", or "" when every matched package was
// analysed.
func (r *Run) Coverage() string {
	if len(r.UnanalyzedPackages) == 0 {
		return ""
	}
	n := len(r.AnalyzedPackages)
	return fmt.Sprintf("analysed %d of %d packages", n, n+len(r.UnanalyzedPackages))
}

// Summary is the one-line account of a run that commands print on stderr,
// e.g. "7 findings (4 errors, 3 warnings), 1 suppressed; incomplete run:
// 2 errors (first: example.com/x: x.go:3:1: ...)". It reads only the Run.
func Summary(r *Run) string {
	active := r.Active()
	var b strings.Builder
	if len(active) == 0 {
		b.WriteString("no findings")
	} else {
		b.WriteString(plural(len(active), "finding"))
		bySev := map[string]int{}
		for _, f := range active {
			bySev[f.Severity.String()]++
		}
		var parts []string
		for _, s := range []string{"error", "warning", "info"} {
			if n := bySev[s]; n > 0 {
				parts = append(parts, plural(n, s))
			}
		}
		var other []string
		for s, n := range bySev {
			if s != "error" && s != "warning" && s != "info" {
				other = append(other, plural(n, s))
			}
		}
		sort.Strings(other)
		fmt.Fprintf(&b, " (%s)", strings.Join(append(parts, other...), ", "))
	}
	if n := len(r.Findings) - len(active); n > 0 {
		fmt.Fprintf(&b, ", %d suppressed", n)
	}
	if n := len(r.Errors); n > 0 {
		// Name the first error, so a log that only keeps stderr (or a
		// report written elsewhere) still says what went wrong.
		first, _, _ := strings.Cut(r.Errors[0].Message, "\n")
		first = Escape(r.Errors[0].Where + ": " + first)
		if n > 1 {
			first = "first: " + first
		}
		cov := ""
		if c := r.Coverage(); c != "" {
			cov = c + ", "
		}
		fmt.Fprintf(&b, "; incomplete run: %s%s (%s)", cov, plural(n, "error"), first)
	}
	return b.String()
}

// Plural counts a noun: "1 file", "2 files", "3 replicas", "2 primaries",
// "0 findings". Every count a person reads goes through it, so no report
// says "1 files" or "1 replica(s)".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %s", n, pluralForm(word))
}

// pluralForm is the plural of an English noun as lockaudit uses them.
func pluralForm(word string) string {
	switch {
	case strings.HasSuffix(word, "y") && len(word) > 1 && !strings.ContainsRune("aeiou", rune(word[len(word)-2])):
		return word[:len(word)-1] + "ies" // primary, dependency
	case strings.HasSuffix(word, "s"), strings.HasSuffix(word, "x"), strings.HasSuffix(word, "sh"), strings.HasSuffix(word, "ch"):
		return word + "es" // status, index, patch
	}
	return word + "s"
}

func plural(n int, word string) string { return Plural(n, word) }

// UsesFrom is where a run's uses come from; a run that does not say
// (written before UsesFrom) is the code's when its verdict says so, else
// named.
func UsesFrom(r *Run) UsesSource {
	switch {
	case r.UsesFrom.Valid():
		return r.UsesFrom
	case r.Verdict != nil && !r.Verdict.FromCode:
		return UsesNamed
	}
	return UsesFromCode
}

// TargetText says which releases the code was judged at and why:
// "valkey-8.1 (derived from the fleet: the lowest release among the nodes
// that can become primary; 127.0.0.1:7002 runs Valkey 8.1.1)"; the bare
// target of a run that does not say why.
func TargetText(r *Run) string {
	c := r.TargetFrom
	if c == nil {
		return r.Target
	}
	s := strings.Join(c.Releases, ",")
	switch c.Source {
	case TargetFromFlag:
		return s + " (from -target)"
	case TargetFromConfig:
		return s + " (from the config file's target)"
	case TargetFromDefault:
		if len(c.Unknown) > 0 {
			return s + " (the default: the release of " + strings.Join(c.Unknown, ", ") + " could not be read, and neither -target nor the config file names one)"
		}
		return s + " (the default: neither -target, the config file nor the fleet named one)"
	}
	var who []string
	for _, n := range c.Nodes {
		who = append(who, n.Addr+" runs "+ServerName(n.Server, n.Version))
	}
	s += " (derived from the fleet: the lowest release among the nodes that can become primary; " + strings.Join(who, ", ")
	if len(c.Unknown) > 0 {
		s += "; the release of " + strings.Join(c.Unknown, ", ") + " could not be read"
	}
	return s + ")"
}
