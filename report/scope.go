package report

import (
	"sort"
	"strings"
)

// What a run did, as facts for the report's scope and methodology: the
// commands the probe sent (every node's evidence names its command) and
// what the probe user was not allowed to read (the servers' NOPERM
// refusals, kept in the nodes' errors).

// CommandsSent lists the commands the run sent to read the servers, once
// each, sorted: the probe's are all read-only.
func CommandsSent(r *Run) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range r.Nodes {
		for _, e := range n.Evidence {
			if !seen[e.Command] {
				seen[e.Command] = true
				out = append(out, e.Command)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Refusal is a fact a server did not let the probe user read.
type Refusal struct {
	Node  string
	Error string // as the node's errors say it: "CONFIG GET: NOPERM ... (grant ...)"
}

// Refusals lists what the probe user was not allowed to read, node by node.
func Refusals(r *Run) []Refusal {
	var out []Refusal
	for _, n := range r.Nodes {
		for _, e := range n.Errors {
			if strings.Contains(e, "NOPERM") {
				out = append(out, Refusal{Node: n.Addr, Error: e})
			}
		}
	}
	return out
}

// NodeCounts counts the run's nodes by role, and how many were declared
// rather than read.
func NodeCounts(r *Run) (byRole map[string]int, declared int) {
	byRole = map[string]int{}
	for _, n := range r.Nodes {
		byRole[RoleText(n.Role)]++
		if n.Declared {
			declared++
		}
	}
	return byRole, declared
}
