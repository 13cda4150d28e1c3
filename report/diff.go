package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/report/finding"
	"github.com/lockaudit/lockaudit/rules"
)

// Comparison is what changed between two runs of the same system, of any
// kind (vet, probe, audit, preflight, scan, conform): findings fixed, new
// and unchanged (matched as match.go says: code findings by rule, file
// and the hash of their source line, as baselines match them, then by
// rule, file and enclosing function, so moved and edited lines still
// match; node, scan and conform findings by rule, node address and
// subject), verdict
// changes, and the nodes upgraded, added or removed (matched by address).
// A half that one of the runs did not look at is not compared: a run that
// did not analyse the code has not "fixed" its findings.
type Comparison struct {
	Old RunRef `json:"old"`
	New RunRef `json:"new"`
	// Findings lists every active finding of either run with its change;
	// a finding active before and suppressed now is "suppressed".
	Findings []FindingChange `json:"findings"`
	Verdict  []VerdictChange `json:"verdict,omitempty"`
	Nodes    []NodeChange    `json:"nodes,omitempty"`
	// NotCompared names what one of the runs did not look at.
	NotCompared []string `json:"not_compared,omitempty"`
}

// RunRef identifies a compared run.
type RunRef struct {
	Command  string `json:"command"`
	Time     string `json:"time,omitempty"`
	Tool     string `json:"tool,omitempty"`
	Module   string `json:"module,omitempty"`
	Revision string `json:"revision,omitempty"`
	Exit     int    `json:"exit"`
}

// Finding changes, as FindingChange.Change spells them.
const (
	ChangeFixed      = "fixed"
	ChangeNew        = "new"
	ChangeUnchanged  = "unchanged"
	ChangeSuppressed = "suppressed"
)

// FindingChange is one finding and what became of it: the old run's
// finding when fixed or suppressed, the new run's otherwise.
type FindingChange struct {
	Change  string  `json:"change"`
	Finding Finding `json:"finding"`
}

// VerdictChange is one lock path's verdict in both runs.
type VerdictChange struct {
	Path rules.Path `json:"path"`
	Old  string     `json:"old"`
	New  string     `json:"new"`
}

// Node changes, as NodeChange.Change spells them.
const (
	NodeUpgraded   = "upgraded"
	NodeDowngraded = "downgraded"
	NodeAdded      = "added"
	NodeRemoved    = "removed"
	NodeChanged    = "changed"
	NodeSame       = "unchanged"
)

// NodeChange is one node address in either run.
type NodeChange struct {
	Addr       string   `json:"addr"`
	Change     string   `json:"change"`
	Role       string   `json:"role"`                 // the newest role known
	OldServer  string   `json:"old_server,omitempty"` // "Valkey 8.1.1"; absent when added
	NewServer  string   `json:"new_server,omitempty"` // absent when removed
	Difference []string `json:"difference,omitempty"` // "delifeq no → yes", "promotable yes → no"
}

// LineHash keys a code finding by its source line, whitespace collapsed
// (re-indenting keeps the key); without a source line the message stands
// in. Baselines and comparisons match findings by rule, file and this hash.
func LineHash(f Finding) string {
	text := strings.Join(strings.Fields(f.Source), " ")
	if text == "" {
		text = "message:" + f.Message
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// findingKey matches a finding across runs: a code finding by rule, file
// and line hash; a node finding by rule, node and subject (loose: without
// the subject, for runs written before findings had one).
func findingKey(f Finding, loose bool) string {
	if f.Pos != nil {
		return "code\x00" + string(f.Rule) + "\x00" + f.Pos.File + "\x00" + LineHash(f)
	}
	if loose {
		return "node\x00" + string(f.Rule) + "\x00" + f.Node
	}
	return "node\x00" + string(f.Rule) + "\x00" + f.Node + "\x00" + f.Subject
}

// A run's halves: what it looked at. Each kind of finding belongs to one,
// and is compared only when both runs looked at it.
type half uint8

const (
	codeHalf    half = iota // the code (vet, audit, preflight)
	fleetHalf               // the nodes, probed or declared (probe, audit, preflight)
	scanHalf                // the keys (scan)
	conformHalf             // the lock steps run (conform)
)

var halfNames = [...]string{codeHalf: "code findings", fleetHalf: "server findings", scanHalf: "scan findings", conformHalf: "conformance findings"}

var halfWhat = [...]string{codeHalf: "analysed the code", fleetHalf: "checked servers", scanHalf: "scanned for lock keys", conformHalf: "ran the lock steps (conform)"}

// halfOf is the half a finding belongs to: its rule's command (scan,
// conform), else code or servers.
func halfOf(f Finding) half {
	if f.Pos != nil {
		return codeHalf
	}
	if r, ok := rules.Get(f.Rule); ok {
		switch r.FoundBy {
		case "lockaudit scan":
			return scanHalf
		case "lockaudit conform":
			return conformHalf
		}
	}
	return fleetHalf
}

// halves says which halves a run looked at.
func halves(r *Run) [4]bool {
	return [4]bool{
		codeHalf:    hasCodeHalf(r),
		fleetHalf:   len(r.Nodes) > 0 || r.Verdict != nil,
		scanHalf:    r.Scan != nil,
		conformHalf: len(r.Conform) > 0,
	}
}

// Compare compares an earlier run with a later one, of any kind: each
// half both runs looked at (code, servers, scan, conform) is compared
// finding by finding; a half only one looked at is named in NotCompared.
func Compare(old, cur *Run) *Comparison {
	c := &Comparison{Old: refOf(old), New: refOf(cur), Findings: []FindingChange{}}
	oh, nh := halves(old), halves(cur)
	compared := func(f Finding) bool { h := halfOf(f); return oh[h] && nh[h] }
	for h := range halfNames {
		switch {
		case oh[h] != nh[h]:
			c.NotCompared = append(c.NotCompared, halfNames[h]+": only the "+which(oh[h])+" run "+halfWhat[h])
		case h == int(codeHalf) && oh[h] && strings.Join(old.Packages, " ") != strings.Join(cur.Packages, " "):
			c.NotCompared = append(c.NotCompared, fmt.Sprintf("the runs analysed different packages (%s, then %s): findings outside the common ones show as fixed or new", strings.Join(old.Packages, " "), strings.Join(cur.Packages, " ")))
		}
	}

	var olds, curs []Finding
	suppressed := map[string]int{}
	for _, f := range identified(old) {
		if compared(f) && f.Suppressed == nil {
			olds = append(olds, f)
		}
	}
	for _, f := range identified(cur) {
		switch {
		case !compared(f):
		case f.Suppressed != nil:
			suppressed[findingKey(f, false)]++
		default:
			curs = append(curs, f)
		}
	}
	p := pair(olds, curs)
	for j, f := range curs {
		change := ChangeNew
		if p.pairOf[j] >= 0 {
			change = ChangeUnchanged
		}
		c.Findings = append(c.Findings, FindingChange{change, f})
	}
	gone := p.unpairedOld()
	sortFindings(gone)
	for _, f := range gone {
		k := findingKey(f, false)
		change := ChangeFixed
		if suppressed[k] > 0 {
			suppressed[k]--
			change = ChangeSuppressed
		}
		c.Findings = append(c.Findings, FindingChange{change, f})
	}
	order := map[string]int{ChangeNew: 0, ChangeFixed: 1, ChangeSuppressed: 2, ChangeUnchanged: 3}
	sort.SliceStable(c.Findings, func(i, j int) bool {
		a, b := c.Findings[i], c.Findings[j]
		if a.Change != b.Change {
			return order[a.Change] < order[b.Change]
		}
		return finding.Less(a.Finding, b.Finding)
	})

	if old.Verdict != nil && cur.Verdict != nil {
		for _, p := range rules.Paths() {
			c.Verdict = append(c.Verdict, VerdictChange{Path: p, Old: old.Verdict.Of(p).Word(), New: cur.Verdict.Of(p).Word()})
		}
	}
	if len(old.Nodes) > 0 && len(cur.Nodes) > 0 {
		c.Nodes = compareNodes(old.Nodes, cur.Nodes)
	}
	return c
}

// identified is a copy of a run's findings, each with its ID (the IDs the
// run's reports show).
func identified(r *Run) []Finding {
	fs := slices.Clone(r.Findings)
	withIDs(fs)
	return fs
}

func which(oldHas bool) string {
	if oldHas {
		return "old"
	}
	return "new"
}

func hasCodeHalf(r *Run) bool {
	if len(r.Packages) > 0 {
		return true
	}
	for _, f := range r.Findings {
		if f.Pos != nil {
			return true
		}
	}
	return false
}

func refOf(r *Run) RunRef {
	ref := RunRef{Command: r.Command, Time: r.Time, Tool: strings.TrimSpace(r.Tool.Name + " " + r.Tool.Version), Exit: ExitCode(r)}
	if s := r.Source; s != nil {
		ref.Module, ref.Revision = s.Module, s.Revision
	}
	return ref
}

func sortFindings(fs []Finding) {
	finding.Sort(fs)
}

func compareNodes(old, cur []Node) []NodeChange {
	byAddr := func(ns []Node) map[string]*Node {
		m := map[string]*Node{}
		for i := range ns {
			if _, dup := m[ns[i].Addr]; !dup {
				m[ns[i].Addr] = &ns[i]
			}
		}
		return m
	}
	o, n := byAddr(old), byAddr(cur)
	var addrs []string
	for a := range o {
		addrs = append(addrs, a)
	}
	for a := range n {
		if o[a] == nil {
			addrs = append(addrs, a)
		}
	}
	sort.Strings(addrs)
	var out []NodeChange
	for _, a := range addrs {
		before, after := o[a], n[a]
		switch {
		case after == nil:
			out = append(out, NodeChange{Addr: a, Change: NodeRemoved, Role: RoleText(before.Role), OldServer: ServerLabel(before.Server, before.Version)})
			continue
		case before == nil:
			out = append(out, NodeChange{Addr: a, Change: NodeAdded, Role: RoleText(after.Role), NewServer: ServerLabel(after.Server, after.Version)})
			continue
		}
		nc := NodeChange{Addr: a, Change: NodeSame, Role: RoleText(after.Role), OldServer: ServerLabel(before.Server, before.Version), NewServer: ServerLabel(after.Server, after.Version)}
		diff := func(what, x, y string) {
			if x != y {
				nc.Difference = append(nc.Difference, what+" "+orNone(x)+" → "+orNone(y))
			}
		}
		diff("role", before.Role, after.Role)
		diff("promotable", before.Promotable.String(), after.Promotable.String())
		for _, cmd := range capColumns {
			diff(AnswerField(cmd), before.Answer(cmd).String(), after.Answer(cmd).String())
		}
		switch {
		case nc.OldServer != nc.NewServer:
			nc.Change = versionChange(before, after)
		case len(nc.Difference) > 0:
			nc.Change = NodeChanged
		}
		out = append(out, nc)
	}
	return out
}

// versionChange says whether a node at the same address moved to a newer
// release (upgraded) or not; a change of flavor or an unreadable version
// is a change.
func versionChange(before, after *Node) string {
	a, errA := rules.ParseVersion(rules.Flavor(before.Server), before.Version)
	b, errB := rules.ParseVersion(rules.Flavor(after.Server), after.Version)
	if errA != nil || errB != nil || a.Flavor != b.Flavor {
		return NodeChanged
	}
	if a.Compare(b) < 0 {
		return NodeUpgraded
	}
	return NodeDowngraded
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Counts returns how many findings have each change.
func (c *Comparison) Counts() map[string]int {
	m := map[string]int{}
	for _, f := range c.Findings {
		m[f.Change]++
	}
	return m
}

// DiffExit is `lockaudit diff`'s exit status: 3 when the new run has a
// finding that fails a run (an error, or a code warning) that the old did
// not, or a verdict got worse (to unsafe or missing); 4 when a verdict
// became unknown; 0 otherwise.
func (c *Comparison) DiffExit() int {
	code := ExitOK
	for _, f := range c.Findings {
		if f.Change == ChangeNew && (f.Finding.Severity == rules.Error || (f.Finding.Pos != nil && f.Finding.Severity == rules.Warning)) {
			return ExitFindings
		}
	}
	for _, v := range c.Verdict {
		o, _ := parseVerdictWord(v.Path, v.Old)
		n, _ := parseVerdictWord(v.Path, v.New)
		if Worse(o, n) == n && o != n {
			if n == No {
				return ExitFindings
			}
			code = ExitUnknown
		}
	}
	return code
}

// The capabilities, in the column order of every report (the Node
// struct's): Lua first, then the native commands.
var capColumns = []rules.Command{rules.UseLua, rules.UseDELIFEQ, rules.UseDELEX, rules.UseIFEQ}

// ServerLabel names a node's server and version for a report ("Valkey
// 8.1.1", "Unknown server").
func ServerLabel(server, version string) string {
	name := "Unknown server"
	switch server {
	case string(rules.Valkey), string(rules.Redis):
		name = rules.Flavor(server).Title()
	case "", ServerUnknown:
	default:
		name = server
	}
	if version == "" {
		if name == "Unknown server" {
			return name
		}
		return name + " (version unknown)"
	}
	return name + " " + version
}

// RoleText is a node's role as reports show it: RoleUnknown for none.
func RoleText(s string) string {
	if s == "" {
		return RoleUnknown
	}
	return s
}

// CapColumns lists the capabilities in the column order of every report.
func CapColumns() []rules.Command { return slices.Clone(capColumns) }
