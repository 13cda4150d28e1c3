package render

import (
	"sort"
	"strings"

	"github.com/lockaudit/lockaudit/report"

	"github.com/lockaudit/lockaudit/rules"
)

// deliverable is what the Markdown and HTML reports add for a client: the
// engagement, the executive summary and severity counts, the remediation
// plan, the consultant's notes, scan and conformance results, the
// comparison with an earlier run, a table of contents, and the
// configuration reduced to what differs (all of it in an appendix).
type deliverable struct {
	Title    string
	Plan     *report.Plan
	Notes    string // Markdown source; each format renders it safely
	Severity []sevHalf
	Scan     *report.Scan
	Conform  []report.ConformNode
	Since    *sinceView
	TOC      []tocEntry

	// ConfigKeys are the settings some data node reports, sorted; each
	// node's DiffConfig shows only those that differ between nodes or
	// from the recommendation, and SameConfig counts the others.
	ConfigKeys []string
	SameConfig int
	ConfigRows []configRow // every value, for the appendix

	Method    []methodItem     // scope and methodology (scope_view.go)
	Limits    []string         // what the verdicts do not cover
	Register  []report.Finding // active findings by risk (signoff.go)
	SignOff   signOff
	Technical []metaItem // the exact data, for the technical appendix
	// Assigned: some finding has an owner or an effort (the columns show).
	Assigned bool
}

type sevHalf struct {
	Label string // "Code", "Servers"
	Items []sevItem
	Total int
}

type sevItem struct {
	Sev string // error, warning, info
	N   int
}

type tocEntry struct {
	ID, Title string
	Appendix  bool
}

// cfgView is one setting shown in the node table.
type cfgView struct {
	Key, Value string
	Advice     string // "recommended: always" when it differs from the recommendation
	Differs    bool   // the data nodes do not all have this value
}

type configRow struct {
	Node   *nodeView
	Values []cfgView // one per ConfigKeys entry ("" when not read)
}

type sinceView struct {
	*report.Comparison
	Counts   map[string]int
	Upgraded int
	Changed  []report.VerdictChange // verdicts that changed
}

func (v *view) buildDeliverable(r *report.Run) {
	d := &v.deliverable
	d.Title = "Distributed-lock audit"
	if en := r.Engagement; en != nil {
		if en.Title != "" {
			d.Title = en.Title
		}
		d.Notes = en.Notes
	}
	d.Plan = report.PlanOf(r)
	d.Scan, d.Conform = r.Scan, r.Conform
	d.Method, d.Limits = methodOf(r, v), limitations(v)
	d.Register, d.SignOff, d.Technical = register(r), signOffOf(r), technical(r, v.ExitCode)
	for _, f := range d.Register {
		d.Assigned = d.Assigned || f.Owner != "" || f.Effort != ""
	}
	if v.HasCode {
		d.Severity = append(d.Severity, severityOf(r, "Code", true))
	}
	if v.HasServers {
		d.Severity = append(d.Severity, severityOf(r, "Servers", false))
	}
	v.buildConfig()
	if c := r.Since; c != nil {
		sv := &sinceView{Comparison: c, Counts: c.Counts()}
		for _, n := range c.Nodes {
			if n.Change == report.NodeUpgraded {
				sv.Upgraded++
			}
		}
		for _, vc := range c.Verdict {
			if vc.Old != vc.New {
				sv.Changed = append(sv.Changed, vc)
			}
		}
		d.Since = sv
	}
	add := func(id, title string, ok bool) {
		if ok {
			d.TOC = append(d.TOC, tocEntry{ID: id, Title: title})
		}
	}
	add("summary", "Executive summary", true)
	add("notes", "Notes from the auditor", strings.TrimSpace(d.Notes) != "")
	add("scope", "Scope, methodology and limitations", true)
	add("since", "Changes since the last audit", d.Since != nil)
	add("plan", "Remediation plan", d.Plan != nil && len(d.Plan.Steps) > 0)
	add("verdict", "Verdict by lock path", len(v.Verdicts) > 0 || v.Legacy)
	add("topology", "Topology and servers", v.HasFleet)
	add("scan", "Scan coverage", d.Scan != nil)
	add("conform", "Conformance by node", len(d.Conform) > 0)
	add("drill", "Failover drill", r.Drill != nil)
	findings := "Findings on the servers"
	if v.HasCode {
		findings = "Findings in the code" // the servers' follow in the same part
	}
	add("findings", findings, v.HasCode || v.HasServers)
	add("suppressed", "Suppressed findings", len(v.Suppressed) > 0)
	add("uses", v.UsesTitle, len(v.Uses) > 0 || v.UsesKnown)
	add("signoff", "Sign-off", true)
	for _, a := range v.appendices() {
		d.TOC = append(d.TOC, tocEntry{ID: a.ID, Title: a.Title, Appendix: true})
	}
}

// appendices are the report's appendices, lettered in order.
func (v *view) appendices() []tocEntry {
	var out []tocEntry
	add := func(id, title string, ok bool) {
		if ok {
			out = append(out, tocEntry{ID: id, Title: "Appendix " + string(rune('A'+len(out))) + ": " + title})
		}
	}
	add("config", "Configuration of every server", len(v.ConfigRows) > 0)
	add("rules", "What each rule means and how to fix it", true)
	add("evidence", "Evidence: what each server answered", len(v.Nodes) > 0)
	add("technical", "Technical details", true)
	return out
}

// Shows says whether the report has the part with that ID: the
// renderers leave out what the contents leave out.
func (v *view) Shows(id string) bool {
	for _, t := range v.TOC {
		if t.ID == id {
			return true
		}
	}
	return false
}

// AppendixTitle returns the title of the appendix with that ID.
func (v *view) AppendixTitle(id string) string {
	for _, a := range v.appendices() {
		if a.ID == id {
			return a.Title
		}
	}
	return ""
}

func severityOf(r *report.Run, label string, code bool) sevHalf {
	h := sevHalf{Label: label}
	var n [4]int
	for _, f := range r.Active() {
		if (f.Pos != nil) == code && f.Severity.Valid() {
			n[f.Severity]++
			h.Total++
		}
	}
	for _, s := range []rules.Severity{rules.Error, rules.Warning, rules.Info} {
		h.Items = append(h.Items, sevItem{Sev: s.String(), N: n[s]})
	}
	return h
}

// worstClass is the count card's class for code or server findings: an
// error is unsafe, a warning a warning, info only informs (never red).
func worstClass(r *report.Run, code bool) string {
	worst := rules.Severity(0)
	for _, f := range r.Active() {
		if (f.Pos != nil) == code && f.Severity > worst {
			worst = f.Severity
		}
	}
	switch worst {
	case rules.Error:
		return "unsafe"
	case rules.Warning:
		return "warn"
	}
	return "info"
}

// buildConfig reduces each data node's settings to those a reader must
// see: a value that differs between the data nodes, or one that differs
// from what a node rule recommends on that node (the plan's changes).
func (v *view) buildConfig() {
	advice := map[string]map[string]string{} // node -> setting -> recommended
	if v.Plan != nil {
		for _, s := range v.Plan.Steps {
			for _, c := range s.Config {
				if advice[c.Node] == nil {
					advice[c.Node] = map[string]string{}
				}
				advice[c.Node][c.Setting] = c.Recommended
			}
		}
	}
	values := map[string]map[string]bool{} // setting -> values seen
	var data []*nodeView
	for _, n := range v.Nodes {
		if n.Role == report.RoleSentinel || len(n.Node.Config) == 0 {
			continue
		}
		data = append(data, n)
		for k, val := range n.Node.Config {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][val] = true
		}
	}
	for k := range values {
		v.ConfigKeys = append(v.ConfigKeys, k)
	}
	sort.Strings(v.ConfigKeys)
	for _, k := range v.ConfigKeys {
		differs := len(values[k]) > 1
		for _, n := range data {
			if _, ok := n.Node.Config[k]; !ok {
				differs = true // not read on every node
			}
		}
		shown := differs
		for _, n := range data {
			rec, ok := advice[n.Addr][k]
			val, read := n.Node.Config[k]
			if ok || differs {
				cv := cfgView{Key: k, Value: val, Differs: differs}
				if !read {
					cv.Value = "not read"
				}
				if ok {
					cv.Advice = "recommended: " + rec
					shown = true
				}
				n.DiffConfig = append(n.DiffConfig, cv)
			}
		}
		if !shown {
			v.SameConfig++
		}
	}
	for _, n := range data {
		row := configRow{Node: n}
		for _, k := range v.ConfigKeys {
			cv := cfgView{Key: k, Value: n.Node.Config[k]}
			if rec, ok := advice[n.Addr][k]; ok {
				cv.Advice = "recommended: " + rec
			}
			row.Values = append(row.Values, cv)
		}
		v.ConfigRows = append(v.ConfigRows, row)
	}
}

// stepKindTitle is the short name of a plan step's kind.
func stepKindTitle(kind string) string {
	return map[string]string{report.PlanEvidence: "Evidence", report.PlanUpgrade: "Servers", report.PlanCode: "Code", report.PlanConfig: "Configuration", report.PlanVerify: "Verify"}[kind]
}
