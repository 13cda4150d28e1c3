package report

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// This file words a verdict: each check's reasons become the sentences
// every report prints, and the "path: head — detail" strings of the JSON
// form's verdict.reasons, from the reasons' typed parts, which
// reasonwords.go words. It is the only place they are worded; nothing
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

// lines words the check: over the fleet alone (probe -uses), for a
// command the code does not rely on, or for one it relies on.
func (c Check) lines(p rules.Path, fromCode bool) []ReasonLine {
	w := checkWording{c: c, p: p, feat: c.Command.Title(), safe: c.Safe()}
	w.word = VerdictWord(p, w.safe)
	w.allGood = fmt.Sprintf("every node that can become primary (%d) has %s", c.Supported, w.feat)
	switch {
	case !fromCode:
		return w.fleetLines()
	case !c.ReliedOn:
		return w.unusedLines()
	}
	return w.reliedLines()
}

// checkWording is what every wording of a check starts from.
type checkWording struct {
	c       Check
	p       rules.Path
	feat    string // the command's title
	safe    Answer
	word    string // the check's verdict word
	allGood string
}

func (w checkWording) line(head, detail string) ReasonLine {
	return ReasonLine{Path: w.p, Head: head, Detail: detail}
}

// fleetLines words a check the fleet alone decides (probe -uses).
func (w checkWording) fleetLines() []ReasonLine {
	var out []ReasonLine
	if w.safe == Yes {
		out = append(out, w.line(w.word, w.allGood))
	}
	for _, r := range w.c.ordered(fleetOrder) {
		switch r.Kind {
		case Lacks:
			out = append(out, w.line(w.word, r.fleetText(w.feat)))
		case Unread:
			out = append(out, w.line(Unknown.String(), r.fleetText(w.feat)))
		case Gap:
			out = append(out, w.line(Unknown.String(), notAllKnown+": "+r.gapText()))
		case noNodes:
			out = append(out, w.line(Unknown.String(), "no data node was found"))
		case ManualOnly, Unsynced:
			out = append(out, w.line(HeadNote, r.fleetText(w.feat)))
		}
	}
	return out
}

// unusedLines words, on one line, a check of a command the code does not
// send: the facts listed, none of them deciding anything.
func (w checkWording) unusedLines() []ReasonLine {
	var titles []string
	for _, pc := range w.p.Commands() {
		titles = append(titles, pc.Title())
	}
	doesNot := "the code " + pathVerbs[w.p].doesNot + " " + strings.Join(titles, " or ")
	var facts []string
	for _, r := range w.c.ordered(unusedOrder) {
		switch r.Kind {
		case Lacks, Unread, ManualOnly, Unsynced:
			facts = append(facts, r.fleetText(w.feat))
		case noNodes:
			facts = append(facts, "no data node was found")
		case Gap:
			facts = append(facts, notAllKnown+": "+r.gapText())
		}
	}
	if len(facts) == 0 {
		facts = append(facts, w.allGood)
	}
	return []ReasonLine{w.line(HeadNotReliedOn, doesNot+", so this verdict does not affect it ("+strings.Join(facts, "; ")+")")}
}

// reliedLines words a check of a command the code sends: each reason
// ties the code's sites to the node, with what to change first.
func (w checkWording) reliedLines() []ReasonLine {
	does := "the code " + pathVerbs[w.p].does + " " + w.feat + siteList(w.c.Sites, w.p == rules.LuaScripts)
	var out []ReasonLine
	if w.safe == Yes {
		out = append(out, w.line(w.word, does+" and "+w.allGood))
	}
	restore := func(addr string) string {
		return "; restore what LA208 reports for " + addr + " and run again (unknown is not safe)"
	}
	for _, r := range w.c.ordered(reliedOrder) {
		switch r.Kind {
		case Lacks:
			broken := fmt.Sprintf("%s has no %s (%s)", r.Node.Describe("promotable"), w.feat, r.evidence())
			if w.p == rules.LuaScripts {
				broken = fmt.Sprintf("%s cannot run Lua (%s)", r.Node.Describe("promotable"), r.evidence())
			}
			out = append(out, w.line(w.word, does+" but "+broken+"; "+r.Advice.Words(r.Node, w.c.Command)))
		case Unread:
			what := fmt.Sprintf("%s is unknown on %s (%s)", w.feat, r.Node.Describe(), r.evidence())
			if r.Answer == No {
				what = r.fleetText(w.feat)
			}
			out = append(out, w.line(Unknown.String(), does+" but "+what+restore(r.Node.Addr)))
		case noNodes:
			out = append(out, w.line(Unknown.String(), does+" but no data node was found"))
		case Gap:
			out = append(out, w.line(Unknown.String(), does+" but "+notAllKnown+": "+r.gapText()+restore(r.Node.Addr)))
		case ManualOnly, Unsynced:
			out = append(out, w.line(HeadNote, does+"; "+r.fleetText(w.feat)))
		}
	}
	return out
}

// evidence, promotion and gapText word the reason's parts about its node.
func (r Reason) evidence() string  { return r.Evidence.Words(r.Node) }
func (r Reason) promotion() string { return r.Promotion.Words() }
func (r Reason) gapText() string   { return r.Gap.Words(r.Node) }

// fleetText says what a reason means for the fleet alone.
func (r Reason) fleetText(feat string) string {
	switch r.Kind {
	case Lacks:
		return fmt.Sprintf("%s has no %s (%s)", r.Node.Describe("promotable"), feat, r.evidence())
	case ManualOnly:
		verb := "has no"
		if r.Answer != No {
			verb = "may lack"
		}
		return fmt.Sprintf("%s %s %s; %s", r.Node.Describe(), verb, feat, r.promotion())
	case Unsynced:
		return fmt.Sprintf("%s is not in sync with its primary (%s); %s: promoted, it holds none of the locks written since (LA214)", r.Node.Describe(), r.evidence(), r.promotion())
	}
	if r.Answer == No { // whether it can become primary is unknown
		return fmt.Sprintf("%s has no %s and %s", r.Node.Describe(), feat, r.promotion())
	}
	return fmt.Sprintf("%s: %s unknown (%s)", r.Node.Describe(), feat, r.evidence())
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
