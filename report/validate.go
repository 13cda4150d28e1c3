package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockaudit/lockaudit/rules"
)

// Allowed values of the run's closed string fields, as the JSON form
// documents them. ExitCode and the renderers read these fields by value:
// a value outside its set ("UNSAFE", "", "bogus") would be read as none of
// them and fail open, so Validate refuses it. The typed fields (answers,
// promotable, commands, verdict words) refuse such values when decoded.
var (
	commands         = []string{"vet", "probe", "audit", "preflight", "scan", "conform", "drill"}
	roles            = []string{RolePrimary, RoleReplica, RoleSentinel, RoleUnknown}
	servers          = []string{ServerValkey, ServerRedis, ServerUnknown}
	suppressionKinds = []string{"inSource", "external"}
	stepStatuses     = []string{StepPass, StepFail, StepMissing, StepSkipped, StepError}
	findingChanges   = []string{ChangeFixed, ChangeNew, ChangeUnchanged, ChangeSuppressed}
	nodeChanges      = []string{NodeUpgraded, NodeDowngraded, NodeAdded, NodeRemoved, NodeChanged, NodeSame}
)

// ValidateComparison checks a comparison's closed fields (where names it:
// "since" in a run): the changes and the verdict words.
func ValidateComparison(where string, c *Comparison) error {
	for i, f := range c.Findings {
		at := fmt.Sprintf("%s.findings[%d]", where, i)
		if err := oneOf(at+".change", f.Change, findingChanges); err != nil {
			return err
		}
		if f.Finding.Rule == "" || !f.Finding.Severity.Valid() || (f.Finding.Pos == nil) == (f.Finding.Node == "") {
			return fmt.Errorf("%s.finding: a finding needs rule, severity and either pos or node", at)
		}
		if f.Finding.Pos != nil {
			if err := checkPos(at+".finding.pos", *f.Finding.Pos); err != nil {
				return err
			}
		}
	}
	for i, v := range c.Verdict {
		at := fmt.Sprintf("%s.verdict[%d]", where, i)
		for _, w := range []struct{ field, word string }{{"old", v.Old}, {"new", v.New}} {
			if err := oneOf(at+"."+w.field, w.word, VerdictWords(v.Path)); err != nil {
				return err
			}
		}
	}
	for i, n := range c.Nodes {
		if err := oneOf(fmt.Sprintf("%s.nodes[%d].change", where, i), n.Change, nodeChanges); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks what the JSON form allows but a run never holds: a value
// outside its documented set, a position before line 1 or a negative
// column, a finding with both or neither of pos and node, a suppression
// without a justification, a verdict that contradicts the run's own nodes
// or findings. The error names the field ("nodes[2].role: "leader" is not
// one of primary, replica, sentinel, unknown"). `lockaudit render` refuses
// such a run (exit 1) rather than render it, because every renderer and
// the exit status would read it wrongly.
func (r *Run) Validate() error {
	if err := oneOf("command", r.Command, commands); err != nil {
		return err
	}
	if r.FailOn != FailOnDefault {
		if err := oneOf("fail_on", r.FailOn, FailOnValues); err != nil {
			return err
		}
	}
	if r.Since != nil {
		if err := ValidateComparison("since", r.Since); err != nil {
			return err
		}
	}
	if err := validateFindings(r.Findings); err != nil {
		return err
	}
	if en := r.Engagement; en != nil {
		for i, a := range en.Assign {
			if err := CheckAssignment(a); err != nil {
				return fmt.Errorf("engagement.assign[%d].%v", i, err)
			}
		}
	}
	if err := r.validateFleet(); err != nil {
		return err
	}
	if r.Drill != nil {
		if err := validateDrill(r.Drill); err != nil {
			return err
		}
	}
	if r.Verdict != nil {
		if err := r.validateVerdict(); err != nil {
			return err
		}
	}
	return r.validateNodeFindings()
}

// validateFindings checks each finding's rule, severity, place and
// suppression, and their IDs.
func validateFindings(fs []Finding) error {
	for i, f := range fs {
		where := fmt.Sprintf("findings[%d]", i)
		if f.Rule == "" {
			return fmt.Errorf("%s.rule: missing", where)
		}
		if !f.Severity.Valid() {
			return fmt.Errorf("%s.severity: missing (want error, warning or info)", where)
		}
		if (f.Pos == nil) == (f.Node == "") {
			return fmt.Errorf("%s (%s): a finding has either pos (code) or node (server), not both or neither", where, f.Rule)
		}
		if f.Pos != nil {
			if err := checkPos(where+".pos", *f.Pos); err != nil {
				return err
			}
		}
		if s := f.Suppressed; s != nil {
			if err := oneOf(where+".suppressed.kind", s.Kind, suppressionKinds); err != nil {
				return err
			}
			if strings.TrimSpace(s.Justification) == "" {
				return fmt.Errorf("%s.suppressed.justification: missing (a suppression needs a reason)", where)
			}
		}
	}
	return checkIDs(fs)
}

// validateFleet checks the uses, the node table and conform's steps.
func (r *Run) validateFleet() error {
	for i, u := range r.Uses {
		where := fmt.Sprintf("uses[%d]", i)
		if !u.Command.Valid() {
			return fmt.Errorf("%s.command: missing", where)
		}
		if err := checkSites(where, u.Sites); err != nil {
			return err
		}
	}
	for i, n := range r.Nodes {
		where := fmt.Sprintf("nodes[%d]", i)
		if n.Addr == "" {
			return fmt.Errorf("%s.addr: missing", where)
		}
		if err := oneOf(where+".role", n.Role, roles); err != nil {
			return err
		}
		if err := oneOf(where+".server", n.Server, servers); err != nil {
			return err
		}
	}
	for i, n := range r.Conform {
		for j, st := range n.Steps {
			if err := oneOf(fmt.Sprintf("conform[%d].steps[%d].status", i, j), st.Status, stepStatuses); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateNodeFindings: a node rule's error findings make its verdict path
// unsafe (the catalog's verdict), so a run with another verdict
// contradicts itself.
func (r *Run) validateNodeFindings() error {
	for i, f := range r.Active() {
		rule, _ := rules.Get(f.Rule)
		p, ok := rule.Path()
		if !ok || f.Pos != nil {
			continue
		}
		if r.Verdict == nil {
			return fmt.Errorf("findings: %s on %s, but the run has no verdict", f.Rule, f.Node)
		}
		if got := r.Verdict.Of(p); got.Safe != No {
			return fmt.Errorf("verdict.%s: %q, but finding %s on %s says it is %s (active finding %d): the run contradicts itself", p, got.Word(), f.Rule, f.Node, VerdictWord(p, No), i+1)
		}
	}
	return nil
}

// validateVerdict checks the verdict against itself and the node table:
// every path present once, each check on a command of its path and relied
// on exactly when the run's uses name it, and every data node that can
// become primary weighed as the join weighs it — a path is never good
// while such a node lacks a command it judges or leaves it unknown.
func (r *Run) validateVerdict() error {
	v := r.Verdict
	paths := rules.Paths()
	if len(v.Paths) != len(paths) {
		return fmt.Errorf("verdict: %d paths, want %d", len(v.Paths), len(paths))
	}
	used := map[rules.Command][]Site{}
	for _, u := range r.Uses {
		used[u.Command] = append(used[u.Command], u.Sites...)
	}
	byAddr := map[string]*Node{}
	data := 0
	for i := range r.Nodes {
		n := &r.Nodes[i]
		byAddr[n.Addr] = n
		if n.Role != RoleSentinel {
			data++
		}
	}
	for i, pv := range v.Paths {
		if pv.Path != paths[i] || !pv.Safe.Valid() {
			return fmt.Errorf("verdict: path %d is %s, want %s", i, pv.Path, paths[i])
		}
		for j, c := range pv.Checks {
			where := fmt.Sprintf("verdict.%s, check of %s", pv.Path, c.Command)
			if !c.Command.Valid() || c.Command.Path() != pv.Path {
				return fmt.Errorf("verdict.%s: check %d judges %s, a command of another path", pv.Path, j, c.Command)
			}
			if _, relied := used[c.Command]; c.ReliedOn != relied {
				return fmt.Errorf("%s: relied_on is %t, but the run's uses say %t", where, c.ReliedOn, relied)
			}
			if v.FromCode && c.ReliedOn && !slices.Equal(c.Sites, used[c.Command]) {
				return fmt.Errorf("%s: its sites are not the uses' sites of %s", where, c.Command)
			}
			if err := checkSites(where, c.Sites); err != nil {
				return err
			}
			if err := validateCheck(where, c, r.Nodes, byAddr, data); err != nil {
				return err
			}
		}
		// Schema 1 runs have no checks: weigh the node table for the
		// commands the path judges, as the probe chose them.
		judged := pv.Checks
		if len(judged) == 0 {
			for _, c := range JudgedCommands(pv.Path, r.UsedCommands()) {
				judged = append(judged, Check{Command: c})
			}
		}
		for _, c := range judged {
			for _, n := range r.Nodes {
				if n.Role == RoleSentinel {
					continue
				}
				kind, _, weighed := NodeStanding(n.Promotable, n.Answer(c.Command))
				switch {
				case !weighed:
				case kind == Lacks && pv.Safe != No:
					return fmt.Errorf("verdict.%s: %q, but node %s (promotable %s) answers %s %s: the run contradicts itself", pv.Path, pv.Word(), n.Addr, n.Promotable, c.Command, n.Answer(c.Command))
				case kind == Unread && pv.Safe == Yes:
					return fmt.Errorf("verdict.%s: %q, but node %s (promotable %s) answers %s %s: a path is good only when every node that can become primary supports it", pv.Path, pv.Word(), n.Addr, n.Promotable, c.Command, n.Answer(c.Command))
				}
			}
		}
	}
	return nil
}

// validateCheck checks a check's reasons against the node table: each
// names a node of the run with its answer, and each data node that can
// become primary gives the reason its standing gives.
func validateCheck(where string, c Check, nodes []Node, byAddr map[string]*Node, data int) error {
	haveNodes := len(nodes) > 0
	type key struct {
		addr string
		kind ReasonKind
	}
	given := map[key]bool{}
	for k, reason := range c.Reasons {
		at := fmt.Sprintf("%s: reasons[%d]", where, k)
		if !reason.Kind.Valid() {
			return fmt.Errorf("%s.kind: missing", at)
		}
		if reason.Node.Addr == "" {
			return fmt.Errorf("%s.node.addr: missing", at)
		}
		given[key{reason.Node.Addr, reason.Kind}] = true
		if reason.Kind == Gap || !haveNodes {
			continue
		}
		n, ok := byAddr[reason.Node.Addr]
		if !ok {
			return fmt.Errorf("%s: node %s is not among the run's nodes", at, reason.Node.Addr)
		}
		if reason.Kind == Unsynced {
			if n.Role != RoleReplica || n.Promotable == PromotableNo {
				return fmt.Errorf("%s: kind unsynced, but node %s is a %s (promotable %s): only a replica that can become primary is", at, n.Addr, n.Role, n.Promotable)
			}
			continue
		}
		if a := n.Answer(c.Command); reason.Answer != a {
			return fmt.Errorf("%s: answer %s, but node %s answers %s %s", at, reason.Answer, n.Addr, c.Command, a)
		}
		if kind, _, _ := NodeStanding(n.Promotable, n.Answer(c.Command)); kind != reason.Kind {
			return fmt.Errorf("%s: kind %s, but node %s (promotable %s, %s %s) gives %s", at, reason.Kind, n.Addr, n.Promotable, c.Command, n.Answer(c.Command), standingName(kind))
		}
	}
	if !haveNodes {
		return nil
	}
	supported := 0
	for _, n := range nodes {
		if n.Role == RoleSentinel {
			continue
		}
		kind, counts, weighed := NodeStanding(n.Promotable, n.Answer(c.Command))
		if counts {
			supported++
		}
		if weighed && kind != 0 && !given[key{n.Addr, kind}] {
			return fmt.Errorf("%s: node %s (promotable %s, %s %s) gives no %s reason", where, n.Addr, n.Promotable, c.Command, n.Answer(c.Command), kind)
		}
	}
	if c.Nodes != data || c.Supported != supported {
		return fmt.Errorf("%s: %d nodes, %d supporting it; the node table has %d and %d", where, c.Nodes, c.Supported, data, supported)
	}
	return nil
}

func standingName(k ReasonKind) string {
	if k == 0 {
		return "no reason (it supports the command)"
	}
	return "a " + k.String() + " reason"
}

// NodeStanding weighs one data node for one command, as every verdict
// does: a node never promoted is not weighed; one that has the command
// supports it (supported); one that can become primary and lacks it gives
// Lacks; one only a manual failover promotes gives a ManualOnly note; any
// other (an unknown answer, or an unknown promotability) gives Unread.
func NodeStanding(p Promotable, a Answer) (kind ReasonKind, supported, weighed bool) {
	switch {
	case p == PromotableNo:
		return 0, false, false
	case a == Yes:
		return 0, true, true
	case a == No && p == PromotableYes:
		return Lacks, false, true
	case p == PromotableManual:
		return ManualOnly, false, true
	}
	return Unread, false, true
}

// JudgedCommands are the commands a path judges for the commands relied
// on: the release judges each release command relied on, DELIFEQ when none
// is; the extend and Lua paths judge their one command.
func JudgedCommands(p rules.Path, relied []rules.Command) []rules.Command {
	var out []rules.Command
	for _, c := range p.Commands() {
		if slices.Contains(relied, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = p.Commands()[:1]
	}
	return out
}

func checkSites(where string, sites []Site) error {
	for j, s := range sites {
		if err := checkPos(fmt.Sprintf("%s.sites[%d].pos", where, j), s.Pos); err != nil {
			return err
		}
	}
	return nil
}

func oneOf(field, value string, allowed []string) error {
	if !slices.Contains(allowed, value) {
		return fmt.Errorf("%s: %q is not one of %s", field, value, strings.Join(allowed, ", "))
	}
	return nil
}

func checkPos(field string, p Position) error {
	switch {
	case p.File == "":
		return fmt.Errorf("%s.file: missing", field)
	case p.Line < 1:
		return fmt.Errorf("%s.line: %d is not a line number (lines start at 1)", field, p.Line)
	case p.Col < 0:
		return fmt.Errorf("%s.col: %d is not a column (columns start at 1; 0 means unknown)", field, p.Col)
	}
	return nil
}
