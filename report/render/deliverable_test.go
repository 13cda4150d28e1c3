package render_test

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/rules"
)

// configRun has three servers: maxmemory-policy is the same everywhere
// and as recommended; replica-priority differs between them; appendonly
// is the same everywhere but LA205 recommends a change on the primary.
func configRun() *report.Run {
	r := report.New("probe", "x")
	r.Topology = "replication"
	r.Verdict = report.NewVerdict()
	cfg := func(prio string) map[string]string {
		return map[string]string{"maxmemory-policy": "noeviction", "replica-priority": prio, "appendonly": "no", "appendfsync": "always"}
	}
	r.Nodes = []report.Node{
		{Addr: "127.0.0.1:1", Role: report.RolePrimary, Server: "valkey", Version: "9.1.2", Config: cfg("100")},
		{Addr: "127.0.0.1:2", Role: report.RoleReplica, Primary: "127.0.0.1:1", Server: "valkey", Version: "9.1.2", Config: cfg("100")},
		{Addr: "127.0.0.1:3", Role: report.RoleReplica, Primary: "127.0.0.1:1", Server: "valkey", Version: "9.1.2", Config: cfg("0")},
	}
	r.Findings = []report.Finding{{Rule: "LA205", Severity: rules.Info, Message: "Locks do not survive a restart: appendonly no", Node: "127.0.0.1:1"}}
	return r
}

// The server table shows a setting only where it differs between servers
// or from a rule's recommendation on that server; the appendix shows
// every value of every server.
func TestConfigShownOnlyWhereItDiffers(t *testing.T) {
	out := string(rendered(t, configRun(), "html"))
	table := between(t, out, `<table class="nodes">`, "</table>")
	rows := strings.Split(table, "<tr>")[2:] // after the header row
	if len(rows) != 3 {
		t.Fatalf("%d server rows", len(rows))
	}
	cfgCell := func(row string) string { return between(t, row, `<td class="cfg">`, "</td>") }
	for i, want := range []string{
		`<div>replica-priority 100</div><div class="advise">appendonly no <span class="rec">(recommended: yes)</span></div>`,
		`<div>replica-priority 100</div>`,
		`<div>replica-priority 0</div>`,
	} {
		if got := cfgCell(rows[i]); !sameDivs(got, want) {
			t.Errorf("server %d: config cell\n got %s\nwant %s", i+1, got, want)
		}
	}
	if strings.Contains(table, "maxmemory-policy") || strings.Contains(table, "appendfsync") {
		t.Errorf("a setting that is the same everywhere and as recommended is in the server table:\n%s", table)
	}
	if !strings.Contains(out, "The other 2 settings read on every server are the same everywhere and as recommended.") {
		t.Errorf("the note does not count the settings left out")
	}
	appendix := between(t, out, `<section id="config" class="appendix">`, "</section>")
	for _, k := range []string{"maxmemory-policy", "replica-priority", "appendonly", "appendfsync"} {
		if !strings.Contains(appendix, "<code>"+k+"</code>") {
			t.Errorf("the appendix lacks %s", k)
		}
	}
	if n := strings.Count(appendix, "<code>noeviction</code>"); n != 3 {
		t.Errorf("the appendix shows maxmemory-policy for %d servers, want 3", n)
	}

	// The Markdown form: the same cells, the same appendix.
	md := string(rendered(t, configRun(), "markdown"))
	for _, want := range []string{"`replica-priority 0`", "`appendonly no` (recommended: yes)", "## Appendix A: Configuration of every server", "`noeviction`"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report lacks %q", want)
		}
	}
	servers := between(t, md, "### Servers", "## ")
	if strings.Contains(servers, "maxmemory-policy") {
		t.Errorf("the Markdown server table shows a setting that is the same everywhere:\n%s", servers)
	}
}

func between(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("no %q", from)
	}
	s = s[i+len(from):]
	j := strings.Index(s, to)
	if j < 0 {
		t.Fatalf("no %q after %q", to, from)
	}
	return s[:j]
}

// sameDivs compares two cells' <div>s regardless of their order.
func sameDivs(a, b string) bool {
	split := func(s string) []string {
		parts := strings.SplitAfter(s, "</div>")
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	pa, pb := split(a), split(b)
	if len(pa) != len(pb) {
		return false
	}
	for _, p := range pa {
		if !strings.Contains(b, p) {
			return false
		}
	}
	return true
}

// The severity counts of each half show each severity in its own color:
// the real mid-upgrade audit's 3 info server findings are info blue, its
// one server error red, and the stylesheet's info color is not red.
func TestSeverityCountsInTheirOwnColors(t *testing.T) {
	out := string(rendered(t, loadReal(t), "html"))
	servers := between(t, out, `<div class="sevhalf"><div class="label">Servers: 4 findings</div>`, "</div>")
	for _, want := range []string{`<span class="sevn error"><b>1</b> error</span>`, `<span class="sevn warning zero"><b>0</b> warning</span>`, `<span class="sevn info"><b>3</b> info</span>`} {
		if !strings.Contains(servers, want) {
			t.Errorf("the servers' severity counts lack %s:\n%s", want, servers)
		}
	}
	css := string(mustReadCSS(t))
	if !strings.Contains(css, ".sevn.info { color: var(--info);") || !strings.Contains(css, ".sevn.error { color: var(--unsafe);") {
		t.Errorf("report.css does not color the counts by severity")
	}
	if info, unsafe := cssColor(t, "info"), cssColor(t, "unsafe"); info == unsafe || info.R > info.B {
		t.Errorf("the info color %v is red or the error color %v", info, unsafe)
	}
	// The Markdown form counts the same.
	md := string(rendered(t, loadReal(t), "markdown"))
	if !strings.Contains(md, "| Servers | 1 | 0 | 3 | 4 |") || !strings.Contains(md, "| Code | 13 | 3 | 0 | 16 |") {
		t.Errorf("the Markdown severity table differs from the run")
	}
}

// Markdown is the same report as HTML in plain form: the same parts in
// the same order, and the same plan steps, for the fixtures and the real
// audits of the three test fleets.
func TestMarkdownIsTheSameReport(t *testing.T) {
	runs := map[string]*report.Run{}
	for _, name := range fixture.Names {
		runs[name] = fixture.Load(t, name)
	}
	for _, fleet := range []string{"all-upgraded", "mid-upgrade", "lua-unloaded"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "cmd", "lockaudit", "testdata", "report", fleet+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if runs[fleet], err = report.DecodeRun(data); err != nil {
			t.Fatal(err)
		}
	}
	htmlTOC := regexp.MustCompile(`<li><a href="#[^"]+">([^<]+)</a></li>`)
	mdTOC := regexp.MustCompile(`(?m)^(?:\d+\.|-) \[([^\]]+)\]\(#[^)]+\)$`)
	htmlStep := regexp.MustCompile(`<h3><span class="kind">[^<]*</span> ([^<]+)</h3>`)
	mdStep := regexp.MustCompile(`(?m)^### Step \d+\. (.+)$`)
	for name, r := range runs {
		h, md := string(rendered(t, r, "html")), string(rendered(t, r, "markdown"))
		toc := between(t, h, `<nav class="toc"`, "</nav>")
		var hp, mp, hs, ms []string
		for _, m := range htmlTOC.FindAllStringSubmatch(toc, -1) {
			hp = append(hp, html.UnescapeString(m[1]))
		}
		for _, m := range mdTOC.FindAllStringSubmatch(md, -1) {
			mp = append(mp, m[1])
			if !strings.Contains(md, "\n## "+m[1]+"\n") {
				t.Errorf("%s: the Markdown contents list %q but no such part follows", name, m[1])
			}
		}
		for _, m := range htmlStep.FindAllStringSubmatch(h, -1) {
			hs = append(hs, html.UnescapeString(m[1]))
		}
		for _, m := range mdStep.FindAllStringSubmatch(md, -1) {
			ms = append(ms, m[1])
		}
		if len(hp) < 4 || strings.Join(hp, " | ") != strings.Join(mp, " | ") {
			t.Errorf("%s: the parts differ\n HTML     %q\n Markdown %q", name, hp, mp)
		}
		if strings.Join(hs, " | ") != strings.Join(ms, " | ") {
			t.Errorf("%s: the plan steps differ\n HTML     %q\n Markdown %q", name, hs, ms)
		}
		if p := report.PlanOf(r); p != nil && len(p.Steps) != len(hs) {
			t.Errorf("%s: the plan has %d steps, the HTML shows %d", name, len(p.Steps), len(hs))
		}
	}
}
