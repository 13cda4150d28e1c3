package render

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/report"

	"github.com/lockaudit/lockaudit/rules"
)

// view is what the Markdown and HTML reports show. It is computed once from
// a Run so the two formats say the same thing, and it depends only on the
// Run's content, not on the order of its nodes, findings or uses: a saved
// and re-rendered run gives the same bytes.
type view struct {
	Command  string
	Meta     []metaItem
	ExitCode int
	FailOn   string // the run's gate (-fail-on), "" by default
	Status   status

	HasCode  bool // the code half ran (vet, audit, preflight): the run names its packages
	HasFleet bool // nodes were probed or declared
	// HasServers: the servers were read in this run: probed, declared,
	// scanned for lock keys (scan) or put through the lock steps (conform).
	HasServers bool
	// UsesKnown: the uses were derived from the code (the verdict says so:
	// audit, preflight), so an empty list means "none"; vet and probe leave
	// it empty without looking.
	UsesKnown bool
	// UsesTitle heads the list of uses, saying whose they are: the
	// code's, named by -uses, or assumed.
	UsesTitle string
	Scope     []scopeItem

	Verdicts []PathView // nil when the run computed no verdict
	Reasons  []string   // every reason as the JSON form words it
	// Legacy: the reasons are a schema 1 run's text, not tied to a path.
	Legacy bool
	Counts []count
	Errors []report.Error

	Sentinels []*nodeView
	Groups    []*topoGroup
	Nodes     []*nodeView // data nodes in topology order, then sentinels
	Versions  []versionInfo
	Picture   *picture

	CodeGroups []*ruleGroup // active code findings by rule, most severe first
	NodeGroups []*ruleGroup // active node findings by rule, most severe first
	Suppressed []report.Finding
	Rules      []ruleDoc // catalog entries of every rule that fired
	Uses       []useView

	deliverable // what makes the report a client's deliverable (report_view.go)

	Drill *drillView // the failover drill's record (drill_render.go)
}

type metaItem struct{ Label, Value string }

// scopeItem says whether one half of the audit was done in this run, so a
// reader never takes "no findings" for "checked and clean".
type scopeItem struct {
	Done bool
	Text string
}

// status is the headline: one word and a sentence, from the exit code.
type status struct {
	Class    string // safe, unsafe, unknown, failed
	Word     string // SAFE, UNSAFE, ACTION NEEDED, UNKNOWN, INCOMPLETE, NO PROBLEMS FOUND
	Headline string
}

// PathView is one lock path of the verdict, in plain words, as every
// report (and the demo) says it.
type PathView struct {
	Key      rules.Path
	Path     string // "Native release"
	Commands string // the path's commands: "DELIFEQ / DELEX"
	Judged   string // the commands the verdict judged: "DELIFEQ"; "" for Lua
	Value    string // safe, unsafe, unknown (available, missing for Lua)
	Word     string // upper-case value
	Class    string // safe, unsafe, unknown
	ReliedOn bool
	Sites    int
	Meaning  string
	Lines    []report.ReasonLine // the path's reasons (none for a schema 1 run)
	// From is where the run's uses come from: a path named by -uses, or
	// assumed by a probe without code, is not said to be the code's.
	From report.UsesSource
}

// ReliedText says that the run relies on the path, and on whose word:
// "The code relies on it", "Relied on (-uses)", "Assumed relied on (no
// code analysed)".
func (pv PathView) ReliedText() string {
	switch pv.From {
	case report.UsesNamed:
		return "Relied on (-uses)"
	case report.UsesAssumed:
		return "Assumed relied on (no code analysed)"
	}
	return "The code relies on it"
}

// IdleText says that the run does not rely on the path.
func (pv PathView) IdleText() string {
	switch pv.From {
	case report.UsesNamed:
		return "Not named by -uses"
	case report.UsesAssumed:
		return "Not assumed (no code analysed)"
	}
	return "Not used by the code"
}

// Label is how the text report and the demo name the path: "Native
// release (DELIFEQ)", "Lua scripts".
func (pv PathView) Label() string {
	if pv.Judged == "" {
		return pv.Path
	}
	return pv.Path + " (" + pv.Judged + ")"
}

// Shown lists the reasons a report prints under the path: all of them when
// the path is not good, only the notes when it is.
func (pv PathView) Shown() []report.ReasonLine {
	if pv.Class != "safe" {
		return pv.Lines
	}
	var out []report.ReasonLine
	for _, l := range pv.Lines {
		if l.Note() {
			out = append(out, l)
		}
	}
	return out
}

type count struct {
	Label  string
	Value  int
	Detail string
	Class  string // "" or unsafe/unknown/safe, for emphasis
}

// nodeView is a node with what every report prints about it.
type nodeView struct {
	*report.Node
	Depth      int    // replication depth inside its topology group
	Label      string // "Valkey 9.1.2"
	VersionCls string // CSS class of its version color: v0..v7, vunk
	Promotable string // plain words
	PromShort  string // for table cells: yes, no, manual only, unknown
	PromCls    string // yes, no, manual, unknown
	Caps       []capView
	Config     []string  // "key = value", sorted by key
	DiffConfig []cfgView // the settings a reader must see (report_view.go)
	Marks      []string  // hidden from Sentinel, declared, ...
	BoxMarks   []string  // the same, short enough for the picture
}

// capView is one command's support on a node. Class says whether it
// matters: a missing command the code does not use is not a problem.
type capView struct {
	Name  string // DELIFEQ
	Value string // yes, no, unknown
	Class string // ok, bad, unknown; off when it does not matter for this run
	Glyph string // ✓ ✗ ?
}

type versionInfo struct {
	Label string
	Class string
	Count int
}

// topoGroup is a primary with its replicas, a cluster shard, or the nodes
// whose primary is not in the run.
type topoGroup struct {
	Name    string // "Shard 2", for cluster shards
	ID      string // the shard's ID
	Label   string
	Title   string // longer text (full shard ID) for tooltips
	Missing string // a primary named by replicas but absent from the run
	// Orphans: the group's primary is not in the run (Missing names it
	// when the replicas do), so every report puts a placeholder above the
	// members, whose Depth counts it.
	Orphans bool
	Members []*nodeView
}

type ruleGroup struct {
	Rule     rules.Rule
	Known    bool // in this lockaudit's catalog
	Severity rules.Severity
	Findings []report.Finding
}

type ruleDoc struct {
	rules.Rule
	What, Why, Fix string // on one line each
}

type useView struct {
	Command string // display name
	Key     rules.Command
	Verdict string
	Class   string
	Sites   []report.Site
}

// capColumns are the capabilities in the column order of every report.
var capColumns = report.CapColumns()

func newView(r *report.Run) *view {
	v := &view{Command: r.Command, ExitCode: report.ExitCode(r), FailOn: r.FailOn, Errors: r.Errors}
	v.HasCode = len(r.Packages) > 0
	for _, f := range r.Findings {
		if f.Pos != nil {
			v.HasCode = true
		}
	}
	v.HasFleet = len(r.Nodes) > 0
	v.HasServers = v.HasFleet || r.Scan != nil || len(r.Conform) > 0
	v.UsesKnown = r.Verdict != nil && r.Verdict.FromCode
	v.UsesTitle = map[report.UsesSource]string{report.UsesFromCode: "Commands the code relies on", report.UsesNamed: "Commands relied on (-uses)", report.UsesAssumed: "Commands assumed relied on (no code analysed)"}[report.UsesFrom(r)]

	used := report.UsedSites(r)
	relevant := func(use rules.Command) bool {
		if !v.HasCode && len(r.Uses) == 0 {
			return true // nothing says what the code needs: every command counts
		}
		_, ok := used[use]
		return ok
	}

	v.Drill = newDrillView(r.Drill)
	v.Meta = metaOf(r)
	v.Scope = scopeOf(r, v)
	v.buildNodes(r, relevant)
	v.buildFindings(r)
	v.buildUses(r)
	v.buildVerdict(r, used)
	v.buildCounts(r)
	v.Status = statusOf(r, v)
	if v.HasFleet {
		v.Picture = layout(v)
	}
	v.buildDeliverable(r)
	return v
}

// metaOf is the report's header, in a client's words: who and what it is
// for, when, and which code and servers; the command, the tool and the
// exact times are in the technical appendix (technical).
func metaOf(r *report.Run) []metaItem {
	var m []metaItem
	add := func(label, value string) {
		if value != "" {
			m = append(m, metaItem{label, value})
		}
	}
	if en := r.Engagement; en != nil {
		add("Client", en.Client)
		add("System", en.System)
		add("Environment", en.Environment)
		add("Prepared by", en.Author)
	}
	if r.Time != "" {
		add("Date", humanTime(r.Time))
	}
	add("Code", sourceText(r))
	if w := r.Probed; w != nil {
		add("Servers read", humanWindow(w))
	}
	return m
}

func scopeOf(r *report.Run, v *view) []scopeItem {
	code := scopeItem{Text: "lock code not analysed in this run"}
	if v.HasCode {
		code = scopeItem{Done: true, Text: "lock code analysed"}
		if len(r.Packages) > 0 {
			code.Text += " (" + strings.Join(r.Packages, " ") + ")"
		}
		if len(r.Rules) > 0 {
			code.Text += " with " + report.Plural(len(r.Rules), "rule")
		}
	}
	fleet := scopeItem{Text: "servers not checked in this run"}
	if v.HasFleet {
		fleet = scopeItem{Done: true, Text: fmt.Sprintf("%s probed", report.Plural(len(r.Nodes), "server"))}
		declared := 0
		for _, n := range r.Nodes {
			if n.Declared {
				declared++
			}
		}
		if declared == len(r.Nodes) {
			fleet.Text = fmt.Sprintf("%s declared (not probed)", report.Plural(len(r.Nodes), "server"))
		} else if declared > 0 {
			fleet.Text = fmt.Sprintf("%s checked (%d declared, not probed)", report.Plural(len(r.Nodes), "server"), declared)
		}
		if r.Topology != "" {
			fleet.Text += ", " + r.Topology + " topology"
		}
	}
	// scan and conform read the servers without probing them.
	var read []string
	if r.Scan != nil {
		primaries := "1 primary's data"
		if n := len(r.Scan.Shards); n != 1 {
			primaries = fmt.Sprintf("%d primaries' data", n)
		}
		read = append(read, primaries+" scanned for lock keys")
	}
	if len(r.Conform) > 0 {
		read = append(read, fmt.Sprintf("%s put through the native lock steps", report.Plural(len(r.Conform), "server")))
	}
	if len(read) > 0 {
		text := strings.Join(read, ", ")
		if v.HasFleet {
			text = fleet.Text + "; " + text
		}
		fleet = scopeItem{Done: true, Text: text}
	}
	return []scopeItem{code, fleet}
}

// statusOf words the exit code for a reader who reads nothing else.
func statusOf(r *report.Run, v *view) status {
	if r.Command == "drill" && v.ExitCode == report.ExitOK {
		return drillStatus(r)
	}
	active := len(r.Active())
	switch v.ExitCode {
	case report.ExitFailed:
		what := report.Plural(len(r.Errors), "error")
		if c := r.Coverage(); c != "" {
			what = c + ", " + what
		}
		return status{"failed", "INCOMPLETE", fmt.Sprintf("The run could not complete (%s). What follows is partial and must not be read as safe.", what)}
	case report.ExitFindings:
		for _, vv := range v.Verdicts {
			if vv.ReliedOn && vv.Class == "unsafe" {
				h := "The lock code relies on a command that a server able to become primary does not support."
				if active > 0 {
					h += fmt.Sprintf(" There are also %s below.", report.Plural(active, "finding"))
				}
				return status{"unsafe", "UNSAFE", h}
			}
		}
		return status{"unsafe", "ACTION NEEDED", fmt.Sprintf("%s to fix %s.", report.Plural(active, "finding"), findingSplit(r))}
	case report.ExitUnknown:
		return status{"unknown", "UNKNOWN", "A fact the verdict needs could not be read on a server that can become primary. Unknown is not safe: restore the missing evidence and run again."}
	case report.ExitOK:
		if r.FailOn != report.FailOnDefault && active > 0 {
			return status{"safe", "PASSED THE GATE", fmt.Sprintf("%s, none of them of severity %s or above (-fail-on %s): the run passes, and they are listed below.", report.Plural(active, "finding"), r.FailOn, r.FailOn)}
		}
		if r.Verdict != nil && len(r.Uses) > 0 {
			return status{"safe", "SAFE", "Every server that can become primary supports the commands the lock code relies on, and no problem needs fixing."}
		}
		switch {
		case v.HasCode && v.HasFleet:
			return status{"safe", "NO PROBLEMS FOUND", "No problem needs fixing in the lock code or on the servers."}
		case v.HasCode:
			return status{"safe", "NO PROBLEMS FOUND", "No problem needs fixing in the lock code. The servers were not checked in this run."}
		default:
			return status{"safe", "NO PROBLEMS FOUND", "No problem needs fixing on the servers. The lock code was not analysed in this run."}
		}
	}
	return status{"unknown", "UNKNOWN", fmt.Sprintf("Unexpected exit status %d.", v.ExitCode)}
}

func findingSplit(r *report.Run) string {
	code, node := 0, 0
	for _, f := range r.Active() {
		if f.Pos != nil {
			code++
		} else {
			node++
		}
	}
	switch {
	case node == 0:
		return "in the lock code"
	case code == 0:
		return "on the servers"
	}
	return fmt.Sprintf("(%d in the lock code, %d on the servers)", code, node)
}

// pathDisplay is how the reports name each path's commands, and the
// plain-language meaning of each verdict, for a reader who does not know
// the commands.
var pathDisplay = map[rules.Path]struct {
	commands string
	meaning  map[report.Answer]string
}{
	rules.NativeRelease: {"DELIFEQ / DELEX", map[report.Answer]string{
		report.Yes:     "Every server that can become primary has the native release command, so releasing a lock keeps working after a failover.",
		report.No:      "A server that can become primary lacks the native release command. After a failover to it, lock releases fail and locks stay held until they expire.",
		report.Unknown: "Could not confirm the native release command on every server that can become primary. Unknown is not safe.",
	}},
	rules.NativeExtend: {"SET IFEQ", map[report.Answer]string{
		report.Yes:     "Every server that can become primary supports SET IFEQ, so extending a lock keeps working after a failover.",
		report.No:      "A server that can become primary lacks SET IFEQ. After a failover to it, lock extends fail and locks expire while their holders still work.",
		report.Unknown: "Could not confirm SET IFEQ on every server that can become primary. Unknown is not safe.",
	}},
	rules.LuaScripts: {"EVAL / FCALL", map[report.Answer]string{
		report.Yes:     "Every server that can become primary can run Lua scripts.",
		report.No:      "A server that can become primary cannot run Lua scripts. Lock steps done in Lua fail there.",
		report.Unknown: "Could not confirm that every server that can become primary runs Lua scripts. Unknown is not safe.",
	}},
}

func (v *view) buildVerdict(r *report.Run, used map[rules.Command]int) {
	if r.Verdict == nil {
		return
	}
	v.Reasons = r.Verdict.Strings()
	v.Legacy = !r.Verdict.Worded() && len(v.Reasons) > 0
	for _, pv := range r.Verdict.Paths {
		d := pathDisplay[pv.Path]
		vv := PathView{Key: pv.Path, Path: pv.Path.Title(), Commands: d.commands, Value: pv.Word(), Word: strings.ToUpper(pv.Word()),
			Class: verdictClass(pv.Safe), Meaning: d.meaning[pv.Safe], Lines: pv.Lines(r.Verdict.FromCode), From: report.UsesFrom(r)}
		if pv.Path != rules.LuaScripts {
			var judged []string
			for _, c := range report.JudgedCommands(pv.Path, r.UsedCommands()) {
				judged = append(judged, c.Title())
			}
			vv.Judged = strings.Join(judged, " and ")
		}
		for _, u := range pv.Path.Commands() {
			if n, ok := used[u]; ok {
				vv.ReliedOn = true
				vv.Sites += n
			}
		}
		v.Verdicts = append(v.Verdicts, vv)
	}
}

// Verdicts words a run's verdict path by path, as every report does; nil
// when the run has no verdict.
func Verdicts(r *report.Run) []PathView {
	v := &view{}
	v.buildVerdict(r, report.UsedSites(r))
	return v.Verdicts
}

func verdictClass(a report.Answer) string {
	switch a {
	case report.Yes:
		return "safe"
	case report.No:
		return "unsafe"
	}
	return "unknown"
}

func (v *view) buildCounts(r *report.Run) {
	var sev [4]int
	code, node, supp := 0, 0, 0
	files := map[string]bool{}
	for _, f := range r.Findings {
		switch {
		case f.Suppressed != nil:
			supp++
		case f.Pos != nil:
			code++
			files[f.Pos.File] = true
			if f.Severity.Valid() {
				sev[f.Severity]++
			}
		default:
			node++
		}
	}
	cls := func(n int, c string) string {
		if n > 0 {
			return c
		}
		return ""
	}
	if v.HasCode {
		var parts []string
		for _, s := range []rules.Severity{rules.Error, rules.Warning, rules.Info} {
			if sev[s] > 0 {
				parts = append(parts, report.Plural(sev[s], s.String()))
			}
		}
		detail := strings.Join(parts, ", ")
		if code > 0 {
			detail += " in " + report.Plural(len(files), "file")
		}
		v.Counts = append(v.Counts, count{"Code findings", code, detail, cls(code, worstClass(r, true))})
	}
	if v.HasServers {
		v.Counts = append(v.Counts, count{"Server findings", node, "", cls(node, worstClass(r, false))})
	}
	supDetail := ""
	if supp > 0 {
		supDetail = "each with its justification"
	}
	v.Counts = append(v.Counts, count{"Suppressed", supp, supDetail, ""})
	if v.HasFleet {
		prom := map[report.Promotable]int{}
		data := 0
		for _, n := range r.Nodes {
			if n.Role != report.RoleSentinel {
				data++
				prom[n.Promotable]++
			}
		}
		var parts []string
		parts = append(parts, fmt.Sprintf("%d can become primary", prom[report.PromotableYes]))
		if prom[report.PromotableManual] > 0 {
			parts = append(parts, fmt.Sprintf("%d by manual failover only", prom[report.PromotableManual]))
		}
		if k := data - prom[report.PromotableYes] - prom[report.PromotableManual] - prom[report.PromotableNo]; k > 0 {
			parts = append(parts, fmt.Sprintf("%d unknown", k))
		}
		if s := len(r.Nodes) - data; s > 0 {
			parts = append(parts, report.Plural(s, "sentinel"))
		}
		v.Counts = append(v.Counts, count{"Servers", len(r.Nodes), strings.Join(parts, ", "), ""})
	}
	if len(r.Errors) > 0 {
		v.Counts = append(v.Counts, count{"Run errors", len(r.Errors), "the run is incomplete", "failed"})
	}
}

// buildNodes orders the nodes as the topology picture shows them: sentinels
// apart; cluster shards; then each primary with its replicas (following
// chained replication); then replicas whose primary is not in the run.
func (v *view) buildNodes(r *report.Run, relevant func(rules.Command) bool) {
	var views []*nodeView
	for i := range r.Nodes {
		views = append(views, v.nodeViewOf(&r.Nodes[i], relevant))
	}
	sort.SliceStable(views, func(i, j int) bool { return nodeLess(views[i].Node, views[j].Node) })
	v.Versions = assignVersionColors(views)

	byShard := map[string][]*nodeView{}
	var rest []*nodeView
	for _, n := range views {
		switch {
		case n.Role == "sentinel":
			v.Sentinels = append(v.Sentinels, n)
		case n.Shard != "":
			byShard[n.Shard] = append(byShard[n.Shard], n)
		default:
			rest = append(rest, n)
		}
	}

	var shards []*topoGroup
	for id, members := range byShard {
		g := &topoGroup{ID: id, Title: "shard " + id}
		g.Members = treeOrder(members)
		shards = append(shards, g)
	}
	sort.Slice(shards, func(i, j int) bool {
		a, b := shards[i].Members[0], shards[j].Members[0]
		if a.Addr != b.Addr {
			return a.Addr < b.Addr
		}
		return shards[i].Title < shards[j].Title
	})
	for i, g := range shards {
		g.Name = fmt.Sprintf("Shard %d", i+1)
		g.Label = fmt.Sprintf("%s (%s)", g.Name, shortID(g.ID))
	}
	v.Groups = append(v.Groups, shards...)
	v.Groups = append(v.Groups, replicationGroups(rest)...)

	for _, g := range v.Groups {
		v.Nodes = append(v.Nodes, g.Members...)
	}
	v.Nodes = append(v.Nodes, v.Sentinels...)
}

func nodeLess(a, b *report.Node) bool {
	if a.Addr != b.Addr {
		return a.Addr < b.Addr
	}
	if a.Role != b.Role {
		return a.Role < b.Role
	}
	return a.Shard < b.Shard
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
}

// replicationGroups groups nodes outside a cluster by the root of their
// replication chain. A chain that ends at an address not in the run becomes
// a group with a missing primary; a malformed cycle ends where it repeats.
func replicationGroups(nodes []*nodeView) []*topoGroup {
	byAddr := map[string]*nodeView{}
	for _, n := range nodes {
		if _, dup := byAddr[n.Addr]; !dup {
			byAddr[n.Addr] = n
		}
	}
	root := func(n *nodeView) (key string, missing bool) {
		seen := map[string]int{} // address -> position on the path
		var path []string
		cur := n
		for {
			seen[cur.Addr] = len(path)
			path = append(path, cur.Addr)
			if cur.Primary == "" {
				if cur.Role == "replica" {
					return "", true // a replica that does not say whose
				}
				return cur.Addr, false
			}
			next, ok := byAddr[cur.Primary]
			if !ok {
				return cur.Primary, true
			}
			if i, loop := seen[next.Addr]; loop {
				// Malformed input: servers that name each other. The loop's
				// lowest address keys it, whichever member we started from.
				return slices.Min(path[i:]), false
			}
			cur = next
		}
	}
	groups := map[string]*topoGroup{}
	var keys []string
	for _, n := range nodes {
		key, missing := root(n)
		gk := fmt.Sprintf("%t\x00%s", missing, key)
		g, ok := groups[gk]
		if !ok {
			g = &topoGroup{Orphans: missing}
			if missing {
				g.Missing = key
				if key == "" {
					g.Label = "Replicas whose primary is unknown"
				} else {
					g.Label = "Replicas of " + key + " (not in this run)"
				}
			}
			groups[gk] = g
			keys = append(keys, gk)
		}
		g.Members = append(g.Members, n)
	}
	sort.Strings(keys) // "false…" (complete groups) before "true…" (missing primary)
	var out []*topoGroup
	for _, k := range keys {
		g := groups[k]
		g.Members = treeOrder(g.Members)
		if g.Orphans {
			for _, m := range g.Members {
				m.Depth++ // under the placeholder of the missing primary
			}
		} else {
			head := g.Members[0]
			switch {
			case head.Role == "primary" && len(g.Members) == 1:
				g.Label = "Primary " + head.Addr
			case head.Role == "primary":
				g.Label = "Primary " + head.Addr + " and replicas"
			case head.Primary != "":
				g.Label = "Servers that name each other as primary (a replication loop)"
			default:
				g.Label = "Node " + head.Addr + " (role " + report.RoleText(head.Role) + ")"
			}
		}
		out = append(out, g)
	}
	return out
}

// treeOrder lists a group's members depth-first from its roots (primaries
// first, then by address) and sets each member's Depth.
func treeOrder(members []*nodeView) []*nodeView {
	in := map[string]bool{}
	for _, m := range members {
		in[m.Addr] = true
	}
	children := map[string][]*nodeView{}
	var roots []*nodeView
	for _, m := range members {
		if m.Primary != "" && in[m.Primary] && m.Primary != m.Addr {
			children[m.Primary] = append(children[m.Primary], m)
		} else {
			roots = append(roots, m)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool {
		pi, pj := roots[i].Role == "primary", roots[j].Role == "primary"
		if pi != pj {
			return pi
		}
		return nodeLess(roots[i].Node, roots[j].Node)
	})
	var out []*nodeView
	seen := map[*nodeView]bool{}
	var walk func(n *nodeView, depth int)
	walk = func(n *nodeView, depth int) {
		if seen[n] {
			return
		}
		seen[n] = true
		n.Depth = depth
		out = append(out, n)
		for _, c := range children[n.Addr] {
			walk(c, depth+1)
		}
	}
	for _, r := range roots {
		walk(r, 0)
	}
	for _, m := range members { // members of a replication cycle have no root
		if !seen[m] {
			walk(m, 0)
		}
	}
	return out
}

func (v *view) nodeViewOf(n *report.Node, relevant func(rules.Command) bool) *nodeView {
	nv := &nodeView{Node: n, Label: report.ServerLabel(n.Server, n.Version)}
	nv.Promotable, nv.PromCls = promotableText(n.Promotable)
	nv.PromShort = map[string]string{"yes": "yes", "no": "no", "manual": "manual only", "unknown": "unknown"}[nv.PromCls]
	if n.Role == report.RoleSentinel {
		nv.Promotable, nv.PromShort, nv.PromCls = "n/a", "n/a", "no"
	}
	if n.Role != report.RoleSentinel {
		for _, c := range capColumns {
			val := n.Answer(c)
			cv := capView{Name: c.Title(), Value: val.String()}
			switch val {
			case report.Yes:
				cv.Class, cv.Glyph = "ok", "✓"
			case report.No:
				cv.Class, cv.Glyph = "bad", "✗"
			default:
				cv.Class, cv.Glyph = "unknown", "?"
			}
			if !relevant(c) || (cv.Class == "bad" && nv.PromCls == "no") {
				cv.Class = "off" // shown, but not a problem for this run
			}
			nv.Caps = append(nv.Caps, cv)
		}
	}
	keys := make([]string, 0, len(n.Config))
	for k := range n.Config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		nv.Config = append(nv.Config, k+" "+n.Config[k])
	}
	if n.Hidden {
		nv.Marks = append(nv.Marks, "hidden from Sentinel")
		nv.BoxMarks = append(nv.BoxMarks, "hidden")
	}
	if n.Declared {
		nv.Marks = append(nv.Marks, "declared, not probed")
		nv.BoxMarks = append(nv.BoxMarks, "declared")
	}
	return nv
}

func promotableText(p report.Promotable) (text, class string) {
	switch p {
	case report.PromotableYes:
		return "can become primary", "yes"
	case report.PromotableNo:
		return "never promoted", "no"
	case report.PromotableManual:
		return "manual failover only", "manual"
	}
	return "promotion unknown", "unknown"
}

// assignVersionColors gives each distinct server version a color class,
// ordered by flavor and version so the legend reads oldest to newest.
func assignVersionColors(nodes []*nodeView) []versionInfo {
	type key struct{ server, version string }
	counts := map[key]int{}
	var keys []key
	for _, n := range nodes {
		k := key{n.Server, n.Version}
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k]++
	}
	parsed := func(k key) (rules.Version, bool) {
		ver, err := rules.ParseVersion(rules.Flavor(k.server), k.version)
		return ver, err == nil
	}
	sort.Slice(keys, func(i, j int) bool {
		a, aok := parsed(keys[i])
		b, bok := parsed(keys[j])
		if aok != bok {
			return aok
		}
		if aok && a.Flavor == b.Flavor {
			if c := a.Compare(b); c != 0 {
				return c < 0
			}
		}
		if keys[i].server != keys[j].server {
			return keys[i].server > keys[j].server // valkey before redis
		}
		return keys[i].version < keys[j].version
	})
	class := map[key]string{}
	var out []versionInfo
	next := 0
	for _, k := range keys {
		c := "vunk"
		if _, ok := parsed(k); ok {
			c = fmt.Sprintf("v%d", next%8)
			next++
		}
		class[k] = c
		out = append(out, versionInfo{Label: report.ServerLabel(k.server, k.version), Class: c, Count: counts[k]})
	}
	for _, n := range nodes {
		n.VersionCls = class[key{n.Server, n.Version}]
	}
	return out
}

func (v *view) buildFindings(r *report.Run) {
	sorted := &report.Run{Findings: append([]report.Finding(nil), r.Findings...)}
	sorted.Sort()
	code := map[rules.ID]*ruleGroup{}
	node := map[rules.ID]*ruleGroup{}
	fired := map[rules.ID]bool{}
	for _, f := range sorted.Findings {
		fired[f.Rule] = true
		if f.Suppressed != nil {
			v.Suppressed = append(v.Suppressed, f)
			continue
		}
		m := node
		if f.Pos != nil {
			m = code
		}
		g, ok := m[f.Rule]
		if !ok {
			g = &ruleGroup{}
			g.Rule, g.Known = rules.Get(f.Rule)
			if !g.Known {
				g.Rule = rules.Rule{ID: f.Rule, Title: "not in this lockaudit's rule catalog"}
			}
			m[f.Rule] = g
		}
		if f.Severity > g.Severity {
			g.Severity = f.Severity
		}
		g.Findings = append(g.Findings, f)
	}
	v.CodeGroups = sortGroups(code)
	v.NodeGroups = sortGroups(node)
	for _, id := range slices.Sorted(maps.Keys(fired)) {
		if rule, ok := rules.Get(id); ok {
			v.Rules = append(v.Rules, ruleDoc{Rule: rule, What: oneLine(rule.What), Why: oneLine(rule.Why), Fix: oneLine(rule.Fix)})
		}
	}
}

func sortGroups(m map[rules.ID]*ruleGroup) []*ruleGroup {
	var out []*ruleGroup
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		return out[i].Rule.ID < out[j].Rule.ID
	})
	return out
}

func (v *view) buildUses(r *report.Run) {
	for _, u := range r.Uses {
		uv := useView{Key: u.Command, Command: u.Command.Title(), Sites: append([]report.Site(nil), u.Sites...)}
		if r.Verdict != nil {
			a := r.Verdict.For(u.Command)
			uv.Verdict, uv.Class = report.VerdictWord(u.Command.Path(), a), verdictClass(a)
		}
		sort.SliceStable(uv.Sites, func(i, j int) bool { return uv.Sites[i].Compare(uv.Sites[j]) < 0 })
		v.Uses = append(v.Uses, uv)
	}
	sort.SliceStable(v.Uses, func(i, j int) bool { return v.Uses[i].Key.String() < v.Uses[j].Key.String() })
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sourceText names the audited code: "example.com/shop at git 1a2b3c4d5e6f
// (2025-06-01T10:00:00Z, with uncommitted changes)".
func sourceText(r *report.Run) string {
	s := r.Source
	if s == nil {
		return ""
	}
	out := s.Module
	if s.Revision != "" {
		rev := s.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if out != "" {
			out += " at "
		}
		out += strings.TrimSpace(s.VCS + " " + rev)
		var q []string
		if s.Time != "" {
			q = append(q, "committed "+humanTime(s.Time))
		}
		if s.Modified {
			q = append(q, "with uncommitted changes")
		}
		if len(q) > 0 {
			out += " (" + strings.Join(q, ", ") + ")"
		}
	} else if out != "" {
		out += " (not a git work tree: no revision)"
	}
	return out
}
