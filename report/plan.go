package report

import (
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// Plan is what a run says to do, for a reader who must act on it: a
// paragraph a manager understands (Summary) and numbered steps in the order
// to take them, each with the commands that verify it. PlanOf derives it
// from the run alone, so the text, Markdown, HTML and JSON reports show the
// same plan.
type Plan struct {
	Summary string `json:"summary"`
	Steps   []Step `json:"steps,omitempty"`
}

// The kinds of plan steps, in the order a plan takes them: evidence first
// (an unknown blocks every decision), then the servers that block a path
// the code relies on (before code changes that move onto that path), the
// code, the servers' settings, and a last audit to compare with this one.
const (
	PlanEvidence = "evidence"
	PlanUpgrade  = "upgrade"
	PlanCode     = "code"
	PlanConfig   = "config"
	PlanVerify   = "verify"
)

// Step is one numbered step of a plan.
type Step struct {
	N      int            `json:"n"`
	Kind   string         `json:"kind"`
	Title  string         `json:"title"`
	Why    string         `json:"why"`
	Nodes  []NodeWork     `json:"nodes,omitempty"`
	Code   []RuleWork     `json:"code,omitempty"`
	Config []ConfigChange `json:"config,omitempty"`
	Gaps   []string       `json:"gaps,omitempty"` // nodes not known (evidence steps)
	// Hold names the native commands the step must not move code onto
	// yet, each with the nodes that can become primary and lack it: the
	// verdict does not call it safe.
	Hold []Hold `json:"hold,omitempty"`
	// Commands are the exact commands that make the step (the settings'
	// CONFIG SET, then CONFIG REWRITE).
	Commands []string `json:"commands,omitempty"`
	Verify   []string `json:"verify"` // commands that show the step is done
}

// Hold is a native command the code must not move onto until the nodes
// change: a node that can become primary lacks it (or its answer is
// unknown).
type Hold struct {
	Command rules.Command `json:"command"`
	Nodes   []string      `json:"nodes"`
}

// NodeWork is one server a step changes, in the order to change them.
type NodeWork struct {
	Addr   string          `json:"addr"`
	Role   string          `json:"role"`
	Server string          `json:"server"`          // "Valkey 8.1.1"
	Lacks  []rules.Command `json:"lacks,omitempty"` // commands relied on it lacks (upgrade) or leaves unknown (evidence)
	Why    string          `json:"why"`             // why it comes at this place
	Do     []string        `json:"do"`              // what to do, each way that works
}

// RuleWork is the code changes of one rule.
type RuleWork struct {
	Rule     rules.ID       `json:"rule"`
	Title    string         `json:"title"`
	Severity rules.Severity `json:"severity"`
	Findings int            `json:"findings"`
	Autofix  int            `json:"autofix"` // of which `lockaudit vet -fix` makes
	Files    int            `json:"files"`
}

// ConfigChange is one setting of one server that differs from the
// recommendation of the node rule that reported it, with what the setting
// costs and when not to use it (the recommendation's).
type ConfigChange struct {
	Node        string   `json:"node"`
	Rule        rules.ID `json:"rule"`
	Setting     string   `json:"setting"`
	Current     string   `json:"current"`
	Recommended string   `json:"recommended"`
	Cost        string   `json:"cost"`
	NotWhen     string   `json:"not_when"`
}

// PlanOf derives a run's plan; nil when the run judged nothing (neither
// the code nor a verdict on a fleet).
func PlanOf(r *Run) *Plan {
	hasCode := len(r.Packages) > 0 || slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Pos != nil })
	if !hasCode && r.Verdict == nil {
		return nil
	}
	p := &Plan{}
	add := func(s *Step) {
		if s != nil {
			s.N = len(p.Steps) + 1
			p.Steps = append(p.Steps, *s)
		}
	}
	evidence, upgrade := serverSteps(r)
	add(evidence)
	add(upgrade)
	code := codeStep(r, upgrade != nil)
	if code != nil {
		holdNative(r, code)
	}
	add(code)
	add(configStep(r))
	if len(p.Steps) > 0 && len(r.Nodes) > 0 {
		add(verifyStep(r))
	}
	p.Summary = summaryOf(r, p)
	return p
}

// serverSteps reads the verdict's checks of the commands the run relies
// on: a node that lacks one is to upgrade (or exclude from promotion), a
// node whose answer is unknown, or a gap in what is known, is evidence to
// restore first.
func serverSteps(r *Run) (evidence, upgrade *Step) {
	if r.Verdict == nil || !r.Verdict.Worded() {
		return nil, nil
	}
	sw := readServerWork(r.Verdict)
	if len(sw.unread) > 0 || len(sw.gaps) > 0 {
		evidence = &Step{Kind: PlanEvidence, Gaps: sw.gaps,
			Title: "Restore the missing evidence",
			Why:   "A fact a verdict needs could not be read, and unknown is never safe: until it is read, no step below can be judged done."}
		for _, w := range sortedWork(sw.unread) {
			w.Why = "its answer for " + commandTitles(w.Lacks) + " is unknown"
			evidence.Nodes = append(evidence.Nodes, w)
		}
		evidence.Verify = []string{probeCommand(r, r.seedAddr(), sw.relied)}
	}
	if len(sw.lacking) > 0 {
		upgrade = upgradeStep(r, sw.lacking)
	}
	return evidence, upgrade
}

// serverWork is what the verdict's checks of the commands relied on ask
// of the servers: the nodes that lack a command, the nodes whose answer
// could not be read, the gaps in what is known, and the commands relied on.
type serverWork struct {
	lacking, unread map[string]*NodeWork
	gaps            []string
	relied          []rules.Command
}

// readServerWork reads the checks of the commands relied on, reason by
// reason.
func readServerWork(v *Verdict) serverWork {
	sw := serverWork{lacking: map[string]*NodeWork{}, unread: map[string]*NodeWork{}}
	for _, pv := range v.Paths {
		for _, c := range pv.Checks {
			if !c.ReliedOn {
				continue
			}
			sw.relied = append(sw.relied, c.Command)
			for _, rs := range c.Reasons {
				switch rs.Kind {
				case Lacks:
					w := nodeWork(sw.lacking, rs.Node)
					w.Lacks = appendNew(w.Lacks, c.Command)
					do := rs.Advice.Words(rs.Node, c.Command)
					if rs.Advice == 0 { // no advice: the fleet alone decided (probe -uses)
						v := rs.Node.release()
						f, ok := c.Command.Feature()
						if !ok {
							f = rules.Lua
						}
						do = Remedy(rs.Node.Addr, v.String(), v, f, "") + ", or keep it from becoming primary"
					}
					w.Do = appendNew(w.Do, do)
				case Unread:
					w := nodeWork(sw.unread, rs.Node)
					w.Lacks = appendNew(w.Lacks, c.Command)
					w.Do = appendNew(w.Do, "restore what could not be read ("+rs.evidence()+") and probe again")
				case Gap:
					sw.gaps = appendNew(sw.gaps, rs.gapText())
				}
			}
		}
	}
	return sw
}

// nodeWork is the node's entry in m, made on first use.
func nodeWork(m map[string]*NodeWork, ref NodeRef) *NodeWork {
	w, ok := m[ref.Addr]
	if !ok {
		w = &NodeWork{Addr: ref.Addr, Role: RoleText(ref.Role), Server: ServerName(ref.Server, ref.Version)}
		if ref.Target != "" {
			w.Server = ref.Target
		}
		m[ref.Addr] = w
	}
	return w
}

// upgradeStep is the step for the nodes that lack a command relied on:
// replicas first, then primaries, each with why it comes where it does.
func upgradeStep(r *Run, lacking map[string]*NodeWork) *Step {
	primaries := map[string]bool{} // primaries with a replica in the run
	for _, n := range r.Nodes {
		if n.Primary != "" {
			primaries[n.Primary] = true
		}
	}
	upgrade := &Step{Kind: PlanUpgrade}
	nodes := sortedWork(lacking)
	sort.SliceStable(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		if pa, pb := a.Role == RolePrimary, b.Role == RolePrimary; pa != pb {
			return pb // replicas before primaries
		}
		return len(a.Lacks) > len(b.Lacks)
	})
	luaOnly, native := true, false
	var lacks []rules.Command
	for _, w := range nodes {
		for _, c := range w.Lacks {
			luaOnly = luaOnly && c == rules.UseLua
			native = native || c != rules.UseLua
			lacks = appendNew(lacks, c)
		}
	}
	slices.Sort(lacks)
	for i, w := range nodes {
		w.Why = upgradeWhy(w, primaries[w.Addr], native)
		if i == 0 && len(nodes) > 1 {
			w.Why = "first: " + w.Why
		}
		upgrade.Nodes = append(upgrade.Nodes, w)
		upgrade.Verify = append(upgrade.Verify, probeCommand(r, w.Addr, w.Lacks))
	}
	servers := plural(len(nodes), "server")
	they := PluralVerb(len(nodes), "it", "they")
	if luaOnly {
		upgrade.Title = "Give " + servers + " a Lua engine, or move the code's Lua lock steps to native commands"
		when := " although " + they + " can become primary: every such step fails there once " + they + " " + PluralVerb(len(nodes), "is", "are") + " primary"
		if nodes[0].Role == RolePrimary { // primaries sort last: all are
			when = ": every such step fails now"
		}
		upgrade.Why = "The code runs lock steps in Lua, which " + PluralVerb(len(nodes), "this server cannot run", "these servers cannot run") + when + ". Load the Lua module (and keep EVAL enabled), or change the code to " + nativeSteps(nodes) + "."
	} else {
		upgrade.Title = "Upgrade or de-promote " + servers
		upgrade.Why = reliesOn(r) + commandTitles(lacks) + ", which " + PluralVerb(len(nodes), "this server lacks", "these servers lack") + " although " + they + " can become primary: a lock step that needs it fails on such a server once it is primary. Change the replicas first, one at a time; finish before deploying code that uses these commands in more places."
	}
	return upgrade
}

// upgradeWhy says why a node to upgrade comes where it does: a primary
// with a replica in the run last (by a failover), one without now or in a
// maintenance window, a node that can become primary first.
func upgradeWhy(w NodeWork, hasReplica, native bool) string {
	switch {
	case w.Role == RolePrimary && hasReplica && native:
		return "a primary: upgrade it last, by failing over to a replica upgraded before it, so writes never stop"
	case w.Role == RolePrimary:
		why := "the primary: every lock step that needs " + commandTitles(w.Lacks) + " fails on it now"
		if native && !hasReplica {
			why += "; with no replica in this run to fail over to, upgrade it in a maintenance window"
		}
		return why
	}
	return "a " + w.Role + " that can become primary: change it first, while its primary keeps serving (or stop it from being promoted until it is changed)"
}

// nativeSteps says which native commands the nodes all have, for "change
// the code to ...": DELIFEQ on Valkey 9.0+, DELEX IFEQ on Redis 8.4+ (the
// capability table's ReleaseFor), else the native commands in general.
func nativeSteps(nodes []NodeWork) string {
	var release rules.Feature
	extend := true
	for _, w := range nodes {
		v, err := parseServerName(w.Server)
		if err != nil {
			return "use the native commands"
		}
		f, ok := rules.ReleaseFor(v)
		if !ok || (release != "" && f != release) {
			return "use the native commands where every node that can become primary has them"
		}
		release = f
		extend = extend && rules.Supports(v, rules.SetIFEQ)
	}
	s := commandUse[release]
	if extend {
		s += " and " + commandUse[rules.SetIFEQ]
	}
	return s
}

// parseServerName reads "Valkey 9.1.2" back into a version.
func parseServerName(s string) (rules.Version, error) {
	name, num, _ := strings.Cut(s, " ")
	return rules.ParseVersion(rules.Flavor(strings.ToLower(name)), num)
}

// holdNative keeps the code step from proposing a change onto a native
// command the verdict does not call safe: for each native command that a
// node that can become primary lacks (or may lack), when every release the
// code was judged at has it (so the analyzers' fixes move lock steps onto
// it), the step says not to apply them yet; and where no native command of
// a lock step is on every such node, it says to keep the code's current
// way (Lua, or what it sends now) until the named nodes change.
func holdNative(r *Run, s *Step) {
	lacking := map[rules.Command][]string{}
	data := false
	for _, n := range r.Nodes {
		if n.Role == RoleSentinel || n.Promotable == PromotableNo {
			continue
		}
		data = true
		for _, c := range []rules.Command{rules.UseDELIFEQ, rules.UseDELEX, rules.UseIFEQ} {
			if n.Answer(c) != Yes {
				lacking[c] = append(lacking[c], n.Addr)
			}
		}
	}
	if !data {
		return
	}
	targets := targetVersions(r)
	auto := 0
	for _, g := range s.Code {
		auto += g.Autofix
	}
	var held []string
	for _, c := range []rules.Command{rules.UseDELIFEQ, rules.UseDELEX, rules.UseIFEQ} {
		f, _ := c.Feature()
		if len(lacking[c]) == 0 || len(targets) == 0 {
			continue
		}
		every := true
		for _, v := range targets {
			every = every && rules.Supports(v, f)
		}
		if every {
			s.Hold = append(s.Hold, Hold{Command: c, Nodes: lacking[c]})
			held = append(held, c.Title()+" (lacked by "+andList(lacking[c])+")")
		}
	}
	if len(held) > 0 && auto > 0 {
		s.Why = "Do not apply `lockaudit vet -fix` yet: the code was judged at " + TargetText(r) + ", where its fixes move lock steps onto " + strings.Join(held, " and ") +
			", which the verdict does not call safe on this fleet. Fix these by hand where the fix stays on what every node that can become primary has, and judge the code at the fleet's own release (without -target) once those nodes change."
		s.Verify = slices.DeleteFunc(s.Verify, func(v string) bool { return strings.HasPrefix(v, "lockaudit vet -fix") })
	}
	used := r.UsedCommands()
	keep := func(step, doing string, cmds ...rules.Command) {
		if !slices.ContainsFunc(used, func(c rules.Command) bool { return c == rules.UseLua || slices.Contains(cmds, c) }) {
			return // the code does not take this step: nothing to keep
		}
		best := cmds[0]
		for _, c := range cmds {
			if len(lacking[c]) == 0 {
				return // one of them is on every node that can become primary
			}
			if len(lacking[c]) < len(lacking[best]) {
				best = c
			}
		}
		s.Why += " No native " + step + " command is on every node that can become primary: keep " + doing + " locks as the code does now (a Lua script where it uses one) until " + andList(lacking[best]) + " " + PluralVerb(len(lacking[best]), "has", "have") + " " + best.Title() + "."
	}
	keep("release", "releasing", rules.UseDELIFEQ, rules.UseDELEX)
	keep("extend", "extending", rules.UseIFEQ)
}

// andList joins "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// targetVersions are the releases the run judged the code at.
func targetVersions(r *Run) []rules.Version {
	list := r.Target
	if r.TargetFrom != nil {
		list = strings.Join(r.TargetFrom.Releases, ",")
	}
	if list == "" {
		return nil
	}
	vs, _, err := rules.ParseTargets(list)
	if err != nil {
		return nil
	}
	return vs
}

// reliesOn opens a sentence about the commands a run relies on, saying
// on whose word: the code's, -uses', or an assumption.
func reliesOn(r *Run) string {
	switch UsesFrom(r) {
	case UsesNamed:
		return "-uses names "
	case UsesAssumed:
		return "The code is assumed (no code was analysed) to rely on "
	}
	return "The code relies on "
}

func codeStep(r *Run, afterUpgrade bool) *Step {
	groups := map[rules.ID]*RuleWork{}
	files := map[rules.ID]map[string]bool{}
	total, auto := 0, 0
	for _, f := range r.Active() {
		if f.Pos == nil {
			continue
		}
		g, ok := groups[f.Rule]
		if !ok {
			rule, known := rules.Get(f.Rule)
			title := rule.Title
			if !known {
				title = "not in this lockaudit's rule catalog"
			}
			g = &RuleWork{Rule: f.Rule, Title: title}
			groups[f.Rule] = g
			files[f.Rule] = map[string]bool{}
		}
		g.Severity = max(g.Severity, f.Severity)
		g.Findings++
		total++
		if f.Autofix {
			g.Autofix++
			auto++
		}
		files[f.Rule][f.Pos.File] = true
	}
	if total == 0 {
		return nil
	}
	s := &Step{Kind: PlanCode}
	for id, g := range groups {
		g.Files = len(files[id])
		s.Code = append(s.Code, *g)
	}
	sort.Slice(s.Code, func(i, j int) bool {
		a, b := s.Code[i], s.Code[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		if a.Findings != b.Findings {
			return a.Findings > b.Findings
		}
		return a.Rule < b.Rule
	})
	s.Title = fmt.Sprintf("Fix %s in the code (%s)", plural(total, "finding"), plural(len(s.Code), "rule"))
	pkgs := packageArgs(r)
	switch {
	case auto == total:
		s.Why = fmt.Sprintf("`lockaudit vet -fix` makes every one of these changes (%d).", auto)
	case auto > 0:
		s.Why = fmt.Sprintf("`lockaudit vet -fix` makes %d of these changes; the other %d are fixed by hand, most severe first (each rule's fix is in the appendix).", auto, total-auto)
	default:
		s.Why = "Each is fixed by hand, most severe first (each rule's fix is in the appendix); `lockaudit vet -fix` has no automatic fix for them."
	}
	if afterUpgrade {
		s.Why += " Deploy code that moves lock steps onto the commands of the step above only once that step is done."
	}
	if auto > 0 {
		s.Verify = append(s.Verify, shellLine(append([]string{"lockaudit", "vet", "-fix"}, pkgs...)...))
	}
	s.Verify = append(s.Verify, shellLine(append([]string{"lockaudit", "vet"}, pkgs...)...))
	return s
}

// recommends are the settings a configuration rule asks for (the catalog's
// recommends), in the order to set them; none for another rule.
func recommends(id rules.ID) []rules.Recommendation {
	r, _ := rules.Get(id)
	return r.Recommends
}

func configStep(r *Run) *Step {
	byAddr := map[string]*Node{}
	for i := range r.Nodes {
		byAddr[r.Nodes[i].Addr] = &r.Nodes[i]
	}
	type key struct{ node, setting string }
	seen := map[key]bool{}
	var changes []ConfigChange
	for _, f := range r.Active() {
		recs := recommends(f.Rule)
		n := byAddr[f.Node]
		if f.Pos != nil || len(recs) == 0 || n == nil {
			continue
		}
		for _, rec := range recs {
			cur, read := n.Config[rec.Setting]
			k := key{n.Addr, rec.Setting}
			if !read || cur == rec.Value || seen[k] {
				continue
			}
			seen[k] = true
			changes = append(changes, ConfigChange{Node: n.Addr, Rule: f.Rule, Setting: rec.Setting, Current: cur, Recommended: rec.Value, Cost: rec.Cost, NotWhen: rec.NotWhen})
		}
	}
	if len(changes) == 0 {
		return nil
	}
	// By node, then in the catalog's order of rules and recommendations,
	// whatever the order of the findings.
	recIndex := func(c ConfigChange) int {
		return slices.IndexFunc(recommends(c.Rule), func(r rules.Recommendation) bool { return r.Setting == c.Setting })
	}
	sort.SliceStable(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return recIndex(a) < recIndex(b)
	})
	s := &Step{Kind: PlanConfig, Config: changes}
	var nodes []string
	settings := map[string][]string{}
	for _, c := range changes {
		if len(settings[c.Node]) == 0 {
			nodes = append(nodes, c.Node)
		}
		settings[c.Node] = append(settings[c.Node], c.Setting)
	}
	s.Title = fmt.Sprintf("Change %s on %s", plural(len(changes), "setting"), plural(len(nodes), "server"))
	s.Why = "These settings differ from what the server rules recommend for locks (durability, replica acknowledgement, no eviction); every other setting already matches. Each has a cost (below): weigh it before you change the setting. Set them with CONFIG SET, then write them to the server's configuration file with CONFIG REWRITE, or they are lost at the next restart."
	for _, a := range nodes {
		n := byAddr[a]
		s.Commands = append(s.Commands, configCommands(n, changes)...)
		s.Verify = append(s.Verify, cliCommand(n, append([]string{"CONFIG", "GET"}, settings[a]...)...))
	}
	return s
}

// configCommands are the commands that make a node's changes: one CONFIG
// SET per setting (a server before 7.0 takes one at a time), then CONFIG
// REWRITE to keep them across a restart.
func configCommands(n *Node, changes []ConfigChange) []string {
	var out []string
	for _, c := range changes {
		if c.Node == n.Addr {
			out = append(out, cliCommand(n, "CONFIG", "SET", c.Setting, c.Recommended))
		}
	}
	return append(out, cliCommand(n, "CONFIG", "REWRITE"))
}

func verifyStep(r *Run) *Step {
	s := &Step{Kind: PlanVerify, Title: "Audit again and compare with this report",
		Why: "A new run shows what the steps changed: fixed, new and unchanged findings, verdict changes, upgraded servers."}
	pkgs := packageArgs(r)
	switch {
	case r.Command == "preflight":
		target := r.Target
		if target == "" {
			target = "RELEASES"
		}
		s.Verify = append(s.Verify, shellLine(append([]string{"lockaudit", "preflight", "-target", target, "-o", "after.json"}, pkgs...)...))
	case r.Command == "audit":
		words := append(append([]string{"lockaudit", "audit"}, r.seedFlag()...), "-o", "after.json")
		s.Verify = append(s.Verify, shellLine(append(words, pkgs...)...))
	default:
		seed := r.seedFlag()
		if seed[0] == "-addr" {
			seed = seed[1:]
		}
		s.Verify = append(s.Verify, shellLine(append([]string{"lockaudit", r.Command, "-format", "json", "-o", "after.json"}, seed...)...))
	}
	s.Verify = append(s.Verify, "lockaudit diff before.json after.json   # before.json: this run's JSON report")
	return s
}

// seedAddr is an address to probe the fleet from: its first primary by
// address, else its first data node.
func (r *Run) seedAddr() string {
	best, bestPrimary := "", false
	for _, n := range r.Nodes {
		if n.Role == RoleSentinel {
			continue
		}
		p := n.Role == RolePrimary
		if best == "" || (p && !bestPrimary) || (p == bestPrimary && n.Addr < best) {
			best, bestPrimary = n.Addr, p
		}
	}
	return best
}

// seedFlag is how audit names the fleet again (a flag and its value):
// Sentinel when the run went through it.
func (r *Run) seedFlag() []string {
	if r.Topology == TopologySentinel {
		first := ""
		for _, n := range r.Nodes {
			if n.Role == RoleSentinel && (first == "" || n.Addr < first) {
				first = n.Addr
			}
		}
		if first != "" {
			return []string{"-sentinel", first}
		}
	}
	return []string{"-addr", r.seedAddr()}
}

// probeCommand is the command line that reads addr's answers for cmds
// again (a declared fleet: preflight with the new releases). Every verify
// command is built with shellLine: its values come from the run.
func probeCommand(r *Run, addr string, cmds []rules.Command) string {
	if r.Topology == TopologyDeclared {
		return shellLine(append([]string{"lockaudit", "preflight", "-target", "RELEASES"}, packageArgs(r)...)...) + "   # RELEASES: the releases after the change"
	}
	var names []string
	for _, c := range cmds {
		names = appendNew(names, c.String())
	}
	return shellLine("lockaudit", "probe", "-uses", strings.Join(names, ","), addr)
}

// cliCommand is the server's own command line tool running args on n.
func cliCommand(n *Node, args ...string) string {
	cli := "valkey-cli"
	if n.Server == ServerRedis {
		cli = "redis-cli"
	}
	host, port, err := net.SplitHostPort(n.Addr)
	if err != nil {
		return shellLine(append([]string{cli, "-h", n.Addr}, args...)...)
	}
	return shellLine(append([]string{cli, "-h", host, "-p", port}, args...)...)
}

func packageArgs(r *Run) []string {
	if len(r.Packages) == 0 {
		return []string{"./..."}
	}
	return r.Packages
}

func sortedWork(m map[string]*NodeWork) []NodeWork {
	var out []NodeWork
	for _, w := range m {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

func commandTitles(cs []rules.Command) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Title())
	}
	return strings.Join(out, " and ")
}

func appendNew[T comparable](list []T, v T) []T {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func PluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Costs are the step's settings once each, in order, with what each costs
// and when not to use it: what the reports print under the changes.
func (s Step) Costs() []ConfigChange {
	var out []ConfigChange
	for _, c := range s.Config {
		if !slices.ContainsFunc(out, func(o ConfigChange) bool { return o.Setting == c.Setting && o.Recommended == c.Recommended }) {
			out = append(out, c)
		}
	}
	return out
}
