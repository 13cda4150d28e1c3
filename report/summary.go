package report

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// summaryOf is the executive summary: one paragraph for a reader who reads
// nothing else. It answers, from the run's typed content only, whether the
// lock paths the code relies on are safe on this fleet (and whether a path
// it does not use yet could be used), what breaks and when, and how much
// work the plan is.
func summaryOf(r *Run, p *Plan) string {
	var s []string
	if len(r.Errors) > 0 {
		s = append(s, fmt.Sprintf("The run is incomplete (%s): what follows is partial and must not be read as safe.", Plural(len(r.Errors), "error")))
	}
	if r.Verdict != nil && r.Verdict.Worded() {
		used := UsedSites(r)
		for _, pv := range r.Verdict.Paths {
			if line := pathSentence(pv, used, UsesFrom(r)); line != "" {
				s = append(s, line)
			}
		}
	}
	s = append(s, workSentence(r, p))
	return strings.Join(s, " ")
}

// breaks says what fails on a node that lacks a path.
var breaks = map[rules.Path]string{
	rules.NativeRelease: "every release fails and locks stay held until their TTL runs out",
	rules.NativeExtend:  "every extend fails and locks expire while their holders still work",
	rules.LuaScripts:    "every lock step done in Lua fails",
}

// verbs says what the code does with a path, for "The code releases with ...".
var verbs = map[rules.Path]string{rules.NativeRelease: "releases locks with", rules.NativeExtend: "extends locks with", rules.LuaScripts: "runs lock steps in"}

func pathSentence(pv PathVerdict, used map[rules.Command]int, from UsesSource) string {
	var relied, other []Check
	sites := 0
	for _, c := range pv.Checks {
		if c.ReliedOn {
			relied = append(relied, c)
			sites += used[c.Command]
		} else {
			other = append(other, c)
		}
	}
	checks := relied
	if len(relied) == 0 {
		checks = other
	}
	if len(checks) == 0 {
		return ""
	}
	var cmds []string
	var lacking, unread []Reason
	worst := Yes
	for _, c := range checks {
		cmds = append(cmds, c.Command.Title())
		worst = Worse(worst, c.Safe())
		for _, rs := range c.Reasons {
			switch rs.Kind {
			case Lacks:
				lacking = append(lacking, rs)
			case Unread, Gap:
				unread = append(unread, rs)
			}
		}
	}
	what := strings.Join(cmds, " and ")
	if pv.Path == rules.LuaScripts {
		what = "Lua"
	}
	if len(relied) > 0 {
		head := "The code " + verbs[pv.Path] + " " + what
		switch from {
		case UsesAssumed:
			head = "Assuming (no code was analysed) the code " + verbs[pv.Path] + " " + what
		case UsesNamed:
			head = "As -uses says, the code " + verbs[pv.Path] + " " + what
		}
		if sites > 0 {
			head += fmt.Sprintf(" (%s)", Plural(sites, "place"))
		}
		switch worst {
		case Yes:
			if pv.Path == rules.LuaScripts {
				return head + ": every server that can become primary can run them."
			}
			return head + ": safe, every server that can become primary supports it."
		case No:
			return head + ", but " + nodesLacking(lacking, what) + ", so " + whenBreaks(lacking) + " " + breaks[pv.Path] + "."
		default:
			return head + ": not confirmed, " + unknownNodes(unread) + ". Unknown is not safe."
		}
	}
	if pv.Path == rules.LuaScripts {
		return "" // the code not running Lua is no news
	}
	switch worst {
	case Yes:
		return fmt.Sprintf("The code does not use %s yet; every server that can become primary has it, so moving to it is safe on this fleet.", what)
	case No:
		return fmt.Sprintf("The code does not use %s yet, and must not: %s.", what, nodesLacking(lacking, what))
	}
	return fmt.Sprintf("The code does not use %s yet; whether this fleet supports it is not confirmed (%s).", what, unknownNodes(unread))
}

// nodesLacking names the nodes of lacks reasons: "replica 10.0.0.7:6379
// (Valkey 8.1.1) can become primary and has no DELIFEQ".
func nodesLacking(rs []Reason, what string) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.Node.Addr] {
			seen[r.Node.Addr] = true
			names = append(names, r.Node.Describe())
		}
	}
	verb := "has"
	if len(names) > 1 {
		verb = "have"
	}
	for _, r := range rs {
		if r.Node.Role == RolePrimary {
			return listWords(names) + " " + verb + " no " + what // a primary now, not "can become"
		}
	}
	return listWords(names) + " can become primary and " + verb + " no " + what
}

// whenBreaks: a primary that lacks a path breaks it now; any other node
// after a failover to it.
func whenBreaks(rs []Reason) string {
	nodes := map[string]bool{}
	for _, r := range rs {
		if r.Node.Role == RolePrimary {
			return "right now"
		}
		nodes[r.Node.Addr] = true
	}
	if len(nodes) > 1 {
		return "after a failover to one of them"
	}
	return "after a failover to it"
}

func unknownNodes(rs []Reason) string {
	n, gaps := 0, 0
	seen := map[string]bool{}
	for _, r := range rs {
		if r.Kind == Gap {
			gaps++
			continue
		}
		if !seen[r.Node.Addr] {
			seen[r.Node.Addr] = true
			n++
		}
	}
	var parts []string
	if n > 0 {
		parts = append(parts, Plural(n, "server")+" could not be read")
	}
	if gaps > 0 {
		parts = append(parts, "not every server that can become primary is known")
	}
	return strings.Join(parts, " and ")
}

// workSentence says how much the plan is.
func workSentence(r *Run, p *Plan) string {
	var parts []string
	for _, s := range p.Steps {
		switch s.Kind {
		case PlanEvidence:
			n := len(s.Nodes)
			part := "restore the evidence"
			if n > 0 {
				part += " of " + Plural(n, "server")
			}
			parts = append(parts, part)
		case PlanUpgrade:
			var addrs []string
			for _, w := range s.Nodes {
				addrs = append(addrs, w.Addr)
			}
			what := strings.ToLower(s.Title[:1]) + s.Title[1:]
			if i := strings.Index(what, " server"); i > 0 {
				// "give 1 server (127.0.0.1:7001) a Lua engine, ..."
				j := i + len(" server")
				if strings.HasPrefix(what[j:], "s") {
					j++
				}
				what = what[:j] + " (" + listWords(addrs) + ")" + what[j:]
			}
			parts = append(parts, what)
		case PlanCode:
			total, auto := 0, 0
			for _, g := range s.Code {
				total += g.Findings
				auto += g.Autofix
			}
			part := fmt.Sprintf("fix %s in the code under %s", Plural(total, "finding"), Plural(len(s.Code), "rule"))
			switch {
			case auto == total:
				part += ", all of them automatically with `lockaudit vet -fix`"
			case auto > 0:
				part += fmt.Sprintf(", %d of them automatically with `lockaudit vet -fix`", auto)
			}
			parts = append(parts, part)
		case PlanConfig:
			nodes := map[string]bool{}
			for _, c := range s.Config {
				nodes[c.Node] = true
			}
			parts = append(parts, fmt.Sprintf("change %s on %s", Plural(len(s.Config), "setting"), Plural(len(nodes), "server")))
		}
	}
	if len(parts) == 0 {
		if len(r.Errors) > 0 {
			return "Nothing found needs a change, but the run did not see everything."
		}
		return "Nothing needs to change."
	}
	return "The work: " + strings.Join(parts, "; ") + "."
}

// listWords joins "a", "a and b", "a, b and c".
func listWords(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

// UsedSites counts the code's sites of each command it relies on (a
// command is present even with no site).
func UsedSites(r *Run) map[rules.Command]int {
	used := map[rules.Command]int{}
	for _, u := range r.Uses {
		used[u.Command] += len(u.Sites)
	}
	return used
}
