package render

import (
	"fmt"
	"strings"

	"github.com/lockaudit/lockaudit/report"
)

// methodItem is one line of the scope and methodology section: what was
// looked at and how, from what the run did.
type methodItem struct {
	Label string
	Text  string
	List  []string // commands sent, refusals
}

// methodOf words the scope and methodology of a run.
func methodOf(r *report.Run, v *view) []methodItem {
	var m []methodItem
	if v.HasCode {
		text := "Not recorded."
		if len(r.Packages) > 0 {
			text = fmt.Sprintf("The Go packages matching %s were analysed statically", strings.Join(r.Packages, " "))
			if n := len(r.AnalyzedPackages); n > 0 {
				text += fmt.Sprintf(" (%s)", report.Plural(n, "package"))
			}
			if len(r.Rules) > 0 {
				text += fmt.Sprintf(" with %s of lockaudit's catalog", report.Plural(len(r.Rules), "rule"))
			}
			text += "; the code was not run."
		}
		if c := r.Coverage(); c != "" {
			text += " Only part of it could be analysed: " + c + "."
		}
		m = append(m, methodItem{Label: "Code", Text: text})
		if t := report.TargetText(r); t != "" {
			m = append(m, methodItem{Label: "Server releases the code was judged at", Text: t})
		}
	}
	if v.HasFleet {
		m = append(m, fleetMethod(r)...)
	}
	if r.Scan != nil {
		m = append(m, methodItem{Label: "Lock keys", Text: "The primaries' keys were scanned for lock keys and their leases with read-only commands (SCAN, then PTTL and OBJECT of each lock key)."})
	}
	if len(r.Conform) > 0 {
		m = append(m, methodItem{Label: "Lock steps", Text: "Each server was put through the lock's steps on scratch keys of its own (written with a short TTL, then deleted), to see which commands behave as the code expects."})
	}
	return m
}

// fleetMethod says which servers were read, how, and what the probe user
// was not allowed to read.
func fleetMethod(r *report.Run) []methodItem {
	byRole, declared := report.NodeCounts(r)
	var roles []string
	for _, role := range []string{report.RolePrimary, report.RoleReplica, report.RoleSentinel, report.RoleUnknown} {
		if n := byRole[role]; n > 0 {
			roles = append(roles, report.Plural(n, role))
		}
	}
	what := fmt.Sprintf("%s (%s)", report.Plural(len(r.Nodes), "server"), strings.Join(roles, ", "))
	if r.Topology != "" && r.Topology != report.TopologyDeclared {
		what += ", " + r.Topology + " topology"
	}
	var m []methodItem
	if declared == len(r.Nodes) {
		return append(m, methodItem{Label: "Servers", Text: what + ", as declared: their releases were taken from the inventory and the capability table; no server was contacted."})
	}
	text := what + ", found from the addresses given and read with read-only commands; nothing was written to any server."
	if w := r.Probed; w != nil {
		text += " Read " + humanWindow(w) + "."
	}
	m = append(m, methodItem{Label: "Servers", Text: text})
	if cmds := report.CommandsSent(r); len(cmds) > 0 {
		m = append(m, methodItem{Label: "Commands sent", List: cmds})
	}
	refused := report.Refusals(r)
	if len(refused) == 0 {
		return append(m, methodItem{Label: "The probe user's permissions", Text: "Every command above was allowed on every server."})
	}
	var list []string
	for _, x := range refused {
		list = append(list, x.Node+": "+x.Error)
	}
	return append(m, methodItem{Label: "What the probe user was not allowed to read", Text: "These facts are unknown, and unknown is not safe:", List: list})
}

// limitations are what the verdicts do not cover, in the terms of the lock
// pattern: they hold for every run.
func limitations(v *view) []string {
	out := []string{
		"Replication is asynchronous: a lock written to the primary can be lost in a failover before any replica has it, and a second client can then take the same lock. \"SAFE\" says that every server that can become primary supports the commands the code relies on; it does not say a failover cannot lose a lock.",
		"WAIT and WAITAOF, min-replicas-to-write and appendfsync always narrow the window in which a failover loses a lock; none closes it. Where two holders would corrupt data, only a fencing token checked at the resource (a strictly increasing number the write must carry) is safe.",
		"Lock leases run on each server's clock: after a failover the new primary's clock decides when a lock ends, so clock differences between the servers matter.",
	}
	if v.HasCode {
		out = append(out, "The code was analysed statically: lock code that is built at run time, reached through reflection or in packages not analysed is not judged, and a finding is reported only where the analysis has evidence that a step is lock code.")
	}
	if v.HasFleet {
		out = append(out, "The servers were read at one moment: a server added, upgraded or reconfigured since is not covered, and a server not reachable from the given addresses was not seen.")
	}
	return out
}
