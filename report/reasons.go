package report

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// This file words a verdict: each check's reasons become the sentences
// every report prints, and the "path: head — detail" strings of the JSON
// form's verdict.reasons. It is the only place they are worded; nothing
// ever reads them back.

// ReasonLine is one worded reason of a path.
type ReasonLine struct {
	Path rules.Path
	// Head is the word after the path: the check's verdict (safe, unsafe,
	// unknown; available, missing), "note", or "not relied on".
	Head   string
	Detail string
}

// Heads that are not verdict words.
const (
	HeadNote        = "note"
	HeadNotReliedOn = "not relied on"
)

// String is the line as the JSON form's verdict.reasons holds it:
// "native_release: unsafe — the code releases with DELIFEQ (...) but ...".
func (l ReasonLine) String() string { return l.Path.String() + ": " + l.Head + " — " + l.Detail }

// Note reports whether the line is a note, which reports show even when
// the path is good.
func (l ReasonLine) Note() bool { return l.Head == HeadNote }

// Lines words every check of every path, in path order.
func (v *Verdict) Lines() []ReasonLine {
	var out []ReasonLine
	for _, pv := range v.Paths {
		out = append(out, pv.Lines(v.FromCode)...)
	}
	return out
}

// Strings is the JSON form's verdict.reasons: the worded checks, or the
// reasons a schema 1 run recorded.
func (v *Verdict) Strings() []string {
	if v.Worded() {
		var out []string
		for _, l := range v.Lines() {
			out = append(out, l.String())
		}
		return out
	}
	return append([]string(nil), v.Legacy...)
}

// Worded reports whether the verdict has checks to word (schema 2); a
// schema 1 run has only its Legacy text.
func (v *Verdict) Worded() bool {
	for _, pv := range v.Paths {
		if len(pv.Checks) > 0 {
			return true
		}
	}
	return false
}

// Lines words the path's checks.
func (pv PathVerdict) Lines(fromCode bool) []ReasonLine {
	var out []ReasonLine
	for _, c := range pv.Checks {
		out = append(out, c.lines(pv.Path, fromCode)...)
	}
	return out
}

// notAllKnown opens the reason a gap gives.
const notAllKnown = "not every node that can become primary is known"

// maxSites is how many places a reason names before "and N more".
const maxSites = 2

// pathVerbs say what the code does on each path, for reasons.
var pathVerbs = map[rules.Path]struct{ does, doesNot string }{
	rules.NativeRelease: {"releases with", "does not release with"},
	rules.NativeExtend:  {"extends with", "does not extend with"},
	rules.LuaScripts:    {"runs", "runs no"},
}

// Reason orders per wording: the fleet's own, the code's when it relies on
// the command, and the facts listed when it does not. noNodes stands for
// the "no data node was found" line (Nodes == 0).
const noNodes ReasonKind = 0

var (
	fleetOrder   = []ReasonKind{Lacks, Unread, Gap, noNodes, ManualOnly, Unsynced}
	reliedOrder  = []ReasonKind{Lacks, Unread, noNodes, Gap, ManualOnly, Unsynced}
	unusedOrder  = []ReasonKind{Lacks, Unread, ManualOnly, Unsynced, noNodes, Gap}
	noNodeReason = []Reason{{Kind: noNodes}}
)

// ordered lists the check's reasons in the order a wording takes them,
// with a noNodes reason when no data node was found.
func (c Check) ordered(order []ReasonKind) []Reason {
	var out []Reason
	for _, k := range order {
		if k == noNodes {
			if c.Nodes == 0 {
				out = append(out, noNodeReason...)
			}
			continue
		}
		for _, r := range c.Reasons {
			if r.Kind == k {
				out = append(out, r)
			}
		}
	}
	return out
}

func (c Check) lines(p rules.Path, fromCode bool) []ReasonLine {
	feat := c.Command.Title()
	safe := c.Safe()
	word := VerdictWord(p, safe)
	allGood := fmt.Sprintf("every node that can become primary (%d) has %s", c.Supported, feat)
	line := func(head, detail string) ReasonLine { return ReasonLine{Path: p, Head: head, Detail: detail} }
	var out []ReasonLine

	if !fromCode {
		if safe == Yes {
			out = append(out, line(word, allGood))
		}
		for _, r := range c.ordered(fleetOrder) {
			switch r.Kind {
			case Lacks:
				out = append(out, line(word, r.fleetText(feat)))
			case Unread:
				out = append(out, line(Unknown.String(), r.fleetText(feat)))
			case Gap:
				out = append(out, line(Unknown.String(), notAllKnown+": "+r.Gap))
			case noNodes:
				out = append(out, line(Unknown.String(), "no data node was found"))
			case ManualOnly, Unsynced:
				out = append(out, line(HeadNote, r.fleetText(feat)))
			}
		}
		return out
	}

	verbs := pathVerbs[p]
	if !c.ReliedOn {
		var titles []string
		for _, pc := range p.Commands() {
			titles = append(titles, pc.Title())
		}
		doesNot := "the code " + verbs.doesNot + " " + strings.Join(titles, " or ")
		var facts []string
		for _, r := range c.ordered(unusedOrder) {
			switch r.Kind {
			case Lacks, Unread, ManualOnly, Unsynced:
				facts = append(facts, r.fleetText(feat))
			case noNodes:
				facts = append(facts, "no data node was found")
			case Gap:
				facts = append(facts, notAllKnown+": "+r.Gap)
			}
		}
		if len(facts) == 0 {
			facts = append(facts, allGood)
		}
		return []ReasonLine{line(HeadNotReliedOn, doesNot+", so this verdict does not affect it ("+strings.Join(facts, "; ")+")")}
	}

	does := "the code " + verbs.does + " " + feat + siteList(c.Sites, p == rules.LuaScripts)
	if safe == Yes {
		out = append(out, line(word, does+" and "+allGood))
	}
	restore := func(addr string) string {
		return "; restore what LA208 reports for " + addr + " and run again (unknown is not safe)"
	}
	for _, r := range c.ordered(reliedOrder) {
		switch r.Kind {
		case Lacks:
			broken := fmt.Sprintf("%s has no %s (%s)", r.Node.describe("promotable"), feat, r.Evidence)
			if p == rules.LuaScripts {
				broken = fmt.Sprintf("%s cannot run Lua (%s)", r.Node.describe("promotable"), r.Evidence)
			}
			out = append(out, line(word, does+" but "+broken+"; "+r.Advice))
		case Unread:
			what := fmt.Sprintf("%s is unknown on %s (%s)", feat, r.Node.describe(), r.Evidence)
			if r.Answer == No {
				what = r.fleetText(feat)
			}
			out = append(out, line(Unknown.String(), does+" but "+what+restore(r.Node.Addr)))
		case noNodes:
			out = append(out, line(Unknown.String(), does+" but no data node was found"))
		case Gap:
			out = append(out, line(Unknown.String(), does+" but "+notAllKnown+": "+r.Gap+restore(r.Node.Addr)))
		case ManualOnly, Unsynced:
			out = append(out, line(HeadNote, does+"; "+r.fleetText(feat)))
		}
	}
	return out
}

// fleetText says what a reason means for the fleet alone.
func (r Reason) fleetText(feat string) string {
	switch r.Kind {
	case Lacks:
		return fmt.Sprintf("%s has no %s (%s)", r.Node.describe("promotable"), feat, r.Evidence)
	case ManualOnly:
		verb := "has no"
		if r.Answer != No {
			verb = "may lack"
		}
		return fmt.Sprintf("%s %s %s; %s", r.Node.describe(), verb, feat, r.Promotion)
	case Unsynced:
		return fmt.Sprintf("%s is not in sync with its primary (%s); %s: promoted, it holds none of the locks written since (LA214)", r.Node.describe(), r.Evidence, r.Promotion)
	}
	if r.Answer == No { // whether it can become primary is unknown
		return fmt.Sprintf("%s has no %s and %s", r.Node.describe(), feat, r.Promotion)
	}
	return fmt.Sprintf("%s: %s unknown (%s)", r.Node.describe(), feat, r.Evidence)
}

// describe names a node for reasons: "replica 127.0.0.1:7002 (Valkey
// 8.1.1, promotable)"; extra qualifiers join the version in parentheses.
func (n NodeRef) describe(extra ...string) string {
	if n.Target != "" {
		return "every " + n.Target + " node (" + strings.Join(append([]string{"declared by -target"}, extra...), ", ") + ")"
	}
	s := n.Addr
	if n.Role != "" && n.Role != Unknown.String() {
		s = n.Role + " " + s
	}
	var quals []string
	if n.Version != "" {
		quals = append(quals, ServerName(n.Server, n.Version))
	}
	quals = append(quals, extra...)
	if len(quals) > 0 {
		s += " (" + strings.Join(quals, ", ") + ")"
	}
	return s
}

// ServerName prints "Valkey 8.1.1" or "Redis 7.0.15" from a node's server
// and version, "unknown server" for a server that is neither.
func ServerName(server, version string) string {
	fl := rules.Flavor(server)
	if fl != rules.Valkey && fl != rules.Redis {
		return "unknown server"
	}
	return fl.Title() + " " + version
}

// siteList writes " (billing/billing.go:56, checkout/checkout.go:65 and 3
// more)"; with what, each place is followed by what it does there.
func siteList(sites []Site, what bool) string {
	if len(sites) == 0 {
		return ""
	}
	var parts []string
	for _, s := range sites[:min(len(sites), maxSites)] {
		p := fmt.Sprintf("%s:%d", s.Pos.File, s.Pos.Line)
		if what && s.What != "" {
			p += ": " + s.What
		}
		parts = append(parts, p)
	}
	list := strings.Join(parts, ", ")
	if more := len(sites) - maxSites; more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return " (" + list + ")"
}
