package render_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/rules"
)

func TestHTMLGolden(t *testing.T) {
	for _, name := range fixture.Names {
		t.Run(name, func(t *testing.T) {
			fixture.Golden(t, name+".html", rendered(t, fixture.Load(t, name), "html"))
		})
	}
}

// hostileRun carries markup and URLs in every string a Run lets an
// analysed repository or a server control.
func hostileRun() *report.Run {
	const x = `<script>alert("x")</script><img src=https://evil.example/p.png onerror=alert(1)>`
	r := report.New("audit", "v1"+x)
	r.Packages = []string{"./" + x}
	r.Findings = []report.Finding{
		{Rule: "LA103", Severity: rules.Error, Message: "msg " + x, Pos: &report.Position{File: "a/" + x + ".go", Line: 3, Col: 1}, Source: "rdb.Del(ctx, `" + x + "`) | ``` |"},
		{Rule: "LA101", Severity: rules.Warning, Message: "supp " + x, Pos: &report.Position{File: "b.go", Line: 1, Col: 1}, Source: x, Suppressed: &report.Suppression{Kind: "inSource", Justification: "because " + x}},
		{Rule: "LA201", Severity: rules.Error, Message: "node " + x, Node: "10.0.0.1:6379" + x},
		{Rule: "LA999", Severity: rules.Error, Message: "rule from the future " + x, Node: "10.0.0.1:6379" + x},
	}
	r.Uses = []report.Use{{Command: rules.UseDELIFEQ, Sites: []report.Site{{Pos: report.Position{File: x, Line: 1, Col: 1}, What: x}}}}
	r.Topology = x
	r.Nodes = []report.Node{
		{Addr: "10.0.0.1:6379" + x, Role: "primary", Promotable: report.PromotableYes, Server: x, Version: x, DELIFEQ: report.No, SetIFEQ: report.Yes,
			Config: map[string]string{x: x}, Errors: []string{x}, Notes: []string{x}, Shard: x, Evidence: []report.Evidence{{Command: x, Answer: x}}},
		{Addr: x, Role: "replica", Promotable: report.PromotableYes, Primary: "10.0.0.1:6379" + x, Server: "valkey", Version: "9.0.0", Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.No, SetIFEQ: report.Yes},
	}
	r.Verdict = report.NewVerdict()
	r.Verdict.FromCode = true
	r.Verdict.Paths[rules.NativeRelease].Checks = []report.Check{{Command: rules.UseDELIFEQ, ReliedOn: true, Nodes: 2, Supported: 1, Sites: r.Uses[0].Sites,
		Reasons: []report.Reason{
			{Kind: report.Lacks, Node: report.NodeRef{Addr: "10.0.0.1:6379" + x, Role: "primary", Server: x, Version: x, Target: x}, Answer: report.No,
				Evidence: report.AnswerSource{Kind: report.SourceCommandInfoFailed, Error: x}, Promotion: report.Promotion{Kind: report.PromotionUnreached, Error: x}, Advice: report.AdviseRemedy},
			{Kind: report.Gap, Node: report.NodeRef{Addr: x}, Gap: report.FleetGap{Kind: report.GapPrimaryNotProbed, Primary: x}},
		}}}
	r.Verdict.Paths[rules.NativeExtend].Safe, r.Verdict.Paths[rules.LuaScripts].Safe = report.Yes, report.Yes
	r.Errors = []report.Error{{Where: x, Message: x}}
	return r
}

var (
	tagRE     = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*/?>`)
	attrRE    = regexp.MustCompile(`([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?`)
	styleRE   = regexp.MustCompile(`(?is)<style[^>]*>(.*?)</style>`)
	cssFetch  = regexp.MustCompile(`(?i)@import|url\s*\(`)
	activeTag = map[string]bool{"script": true, "img": true, "image": true, "iframe": true, "frame": true, "object": true, "embed": true,
		"link": true, "base": true, "form": true, "audio": true, "video": true, "source": true, "track": true, "foreignobject": true, "use": true}
)

// fetchProblems lists anything in an HTML document that a browser would
// fetch or run: scripts, images, frames, stylesheet links, any URL-bearing
// attribute except in-page anchors, event handlers, refreshes, CSS imports
// or url(). It reads real tags and attributes only; escaped text such as
// "&lt;img src=..." is text and cannot fetch.
func fetchProblems(doc string) []string {
	var out []string
	for _, tag := range tagRE.FindAllStringSubmatch(doc, -1) {
		name := strings.ToLower(tag[1])
		if activeTag[name] {
			out = append(out, "element <"+name+">")
		}
		for _, a := range attrRE.FindAllStringSubmatch(tag[2], -1) {
			attr, val := strings.ToLower(a[1]), strings.Trim(a[2], `"'`)
			switch {
			case strings.HasPrefix(attr, "on"):
				out = append(out, "event handler "+attr)
			case attr == "href" && name == "a":
				// A link is fetched only when followed: in-page anchors,
				// and the web and mail links of the consultant's notes,
				// are allowed; any other scheme (javascript:, data:) is not.
				low := strings.ToLower(val)
				if !strings.HasPrefix(val, "#") && !strings.HasPrefix(low, "https://") && !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "mailto:") {
					out = append(out, attr+"="+val)
				}
			case attr == "href" || attr == "xlink:href":
				if !strings.HasPrefix(val, "#") {
					out = append(out, attr+"="+val)
				}
			case attr == "src" || attr == "srcset" || attr == "action" || attr == "formaction" || attr == "poster" || attr == "data" || attr == "background" || attr == "ping":
				out = append(out, attr+"="+val)
			case attr == "http-equiv":
				out = append(out, "meta http-equiv="+val)
			case attr == "style" && cssFetch.MatchString(val):
				out = append(out, "style attribute that fetches: "+val)
			}
		}
	}
	for _, css := range styleRE.FindAllStringSubmatch(doc, -1) {
		if m := cssFetch.FindString(css[1]); m != "" {
			out = append(out, "CSS that fetches: "+m)
		}
	}
	return out
}

func TestHTMLIsSelfContained(t *testing.T) {
	for _, name := range fixture.Names {
		out := string(rendered(t, fixture.Load(t, name), "html"))
		if p := fetchProblems(out); p != nil {
			t.Errorf("%s: %v", name, p)
		}
		// The realistic reports contain no URL at all, not even as text.
		if strings.Contains(out, "http://") || strings.Contains(out, "https://") {
			t.Errorf("%s: the report contains a URL", name)
		}
	}
	if p := fetchProblems(string(rendered(t, hostileRun(), "html"))); p != nil {
		t.Errorf("hostile run: %v", p)
	}
	if p := fetchProblems(`<p>&lt;img src=x onerror=y&gt;</p><a href="#rule-LA101">x</a>`); p != nil {
		t.Errorf("escaped text or an in-page anchor counted as a fetch: %v", p)
	}
	// The check must be able to fail.
	for _, bad := range []string{`<script>x</script>`, `<img src="a.png">`, `<a href="javascript:alert(1)">`, `<a href="data:text/html,x">`, `<link href="https://x.example/">`, `<link rel=stylesheet href=//x.example/a.css>`,
		`<style>@import "x.css"</style>`, `<div style="background:url(x.png)">`, `<svg><image href="x.png"/></svg>`, `<b onclick="x()">`,
		`<meta http-equiv="refresh" content="0;url=https://x.example/">`, `<p class=a title='b' data-x=1><iframe srcdoc=x></iframe>`} {
		if fetchProblems(bad) == nil {
			t.Errorf("fetchProblems accepts %q", bad)
		}
	}
}

func TestHTMLEscapesEverythingFromTheRun(t *testing.T) {
	out := string(rendered(t, hostileRun(), "html"))
	if strings.Contains(strings.ToLower(out), "<script") || strings.Contains(out, "<img") {
		t.Fatalf("markup from the Run reached the HTML unescaped")
	}
	if n := strings.Count(out, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"); n < 20 {
		t.Errorf("want the hostile text shown escaped everywhere it was used, found it %d times", n)
	}
	// Catalog text is shown for known rules; the unknown one still appears.
	if !strings.Contains(out, "LA999") || !strings.Contains(out, "not in this lockaudit&#39;s rule catalog") {
		t.Errorf("a finding of a rule this lockaudit does not know is dropped")
	}
}

func TestHTMLSectionsInOrder(t *testing.T) {
	out := string(rendered(t, fixture.Load(t, "audit-unsafe"), "html"))
	banner := strings.Index(out, `<div class="banner unsafe" role="status">`)
	if banner < 0 || !strings.Contains(out[banner:banner+200], "UNSAFE") {
		t.Fatalf("no UNSAFE verdict banner")
	}
	last := banner
	// The parts a reader needs first, then the details, then the
	// appendices; the contents list them in the same order.
	toc := out[strings.Index(out, `<nav class="toc"`):strings.Index(out, "</nav>")]
	tocAt := -1
	for _, id := range []string{"plan", "verdict", "topology", "nodes", "findings", "suppressed", "uses", "config", "rules", "evidence"} {
		i := strings.Index(out, `<section id="`+id+`"`)
		if i < last {
			t.Errorf("section %s missing or out of order", id)
		}
		last = max(last, i)
		if id == "nodes" {
			continue // part of "Topology and servers"
		}
		j := strings.Index(toc, `href="#`+id+`"`)
		if j < tocAt {
			t.Errorf("the contents lack %s or list it out of order", id)
		}
		tocAt = max(tocAt, j)
	}
	// The executive summary's verdict precedes any section.
	if strings.Index(out, `<section id="summary">`) > banner {
		t.Errorf("the banner is not inside the summary")
	}
	for _, want := range []string{
		`<div class="value">UNSAFE</div>`, `<div class="value">SAFE</div>`, `<div class="value">AVAILABLE</div>`,
		"the code releases with DELIFEQ (orders/lock.go:88) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ",
		`<h3>Native release (DELIFEQ): <span class="pill unsafe">unsafe</span>`,
		`<td class="cap bad">✗ no</td>`, // DELIFEQ of the 8.1.1 replica
		"<b>Suppressed (in source):</b> legacy path kept until the fleet runs 9.0 everywhere",
		`<div class="rule" id="rule-LA201">`,
		"<code>INFO scriptingengines</code>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestHTMLTopologyPicture(t *testing.T) {
	out := string(rendered(t, fixture.Load(t, "audit-unsafe"), "html"))
	svg := out[strings.Index(out, "<svg"):strings.Index(out, "</svg>")]
	boxes := regexp.MustCompile(`<g class="node ([^"]*)" transform`).FindAllStringSubmatch(svg, -1)
	if len(boxes) != 7 {
		t.Fatalf("want 7 node boxes (5 data nodes, 2 sentinels), got %d", len(boxes))
	}
	if n := strings.Count(svg, `<path class="edge"`); n != 5 {
		t.Errorf("want 5 edges (a drop to each of 4 replicas, one trunk and bus for their row), got %d", n)
	}
	// The promotable 8.1.1 replica is the only box with a red DELIFEQ badge.
	red := regexp.MustCompile(`(?s)<title>([^<]*)</title>.*?</g>\n</g>`).FindAllStringSubmatch(svg, -1)
	var withBad []string
	for _, g := range red {
		if strings.Contains(g[0], `<g class="cap bad">`) {
			withBad = append(withBad, g[1])
		}
	}
	if strings.Join(withBad, ",") != "10.0.0.7:6379" {
		t.Errorf("boxes with a missing command the code needs: %v, want the 8.1.1 replica", withBad)
	}
	// The replica Sentinel never promotes is drawn as such and its missing
	// commands are not alarms.
	if !strings.Contains(svg, `<g class="node v0 prom-no" transform`) {
		t.Errorf("the replica-priority 0 replica is not drawn as never promoted (oldest version color v0)")
	}
	for _, v := range []string{"Valkey 8.0.2 (1)", "Valkey 8.1.1 (1)", "Valkey 9.0.3 (1)", "Valkey 9.1.2 (4)"} {
		if !strings.Contains(out, v) {
			t.Errorf("legend lacks %q", v)
		}
	}
}

// The report depends on the Run's content only: shuffling nodes, findings
// and uses changes nothing.
func TestReportsDoNotDependOnInputOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range fixture.Names {
		want := map[string]string{"html": string(rendered(t, fixture.Load(t, name), "html")), "markdown": string(rendered(t, fixture.Load(t, name), "markdown"))}
		for i := 0; i < 5; i++ {
			r := fixture.Load(t, name)
			rng.Shuffle(len(r.Nodes), func(i, j int) { r.Nodes[i], r.Nodes[j] = r.Nodes[j], r.Nodes[i] })
			rng.Shuffle(len(r.Findings), func(i, j int) { r.Findings[i], r.Findings[j] = r.Findings[j], r.Findings[i] })
			rng.Shuffle(len(r.Uses), func(i, j int) { r.Uses[i], r.Uses[j] = r.Uses[j], r.Uses[i] })
			for format, w := range want {
				if got := string(rendered(t, r, format)); got != w {
					t.Errorf("%s %s changes with the order of nodes, findings or uses", name, format)
				}
			}
		}
	}
}

// Topologies a probe can report when things are broken: a replica whose
// primary was not reached, a replica that names no primary, a replication
// cycle, a cluster shard without a primary, chained replication.
func TestHTMLOddTopologies(t *testing.T) {
	node := func(addr, role, primary, shard string) report.Node {
		return report.Node{Addr: addr, Role: role, Promotable: report.PromotableYes, Primary: primary, Shard: shard, Server: "valkey", Version: "9.0.1",
			Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.No, SetIFEQ: report.Yes}
	}
	r := report.New("probe", "v1")
	r.Nodes = []report.Node{
		node("10.0.0.1:1", "replica", "10.9.9.9:1", ""), // primary not in the run
		node("10.0.0.2:1", "replica", "", ""),           // primary unknown
		node("10.0.0.3:1", "replica", "10.0.0.4:1", ""), // a cycle
		node("10.0.0.4:1", "replica", "10.0.0.3:1", ""),
		node("10.0.0.5:1", "replica", "10.0.0.6:1", "s1"), // shard without its primary
		node("10.0.0.7:1", "primary", "", ""),             // chain 7 <- 8 <- 9
		node("10.0.0.8:1", "replica", "10.0.0.7:1", ""),
		node("10.0.0.9:1", "replica", "10.0.0.8:1", ""),
		node("10.0.0.10:1", "unknown", "", ""),
	}
	for _, format := range []string{"html", "markdown"} {
		out := string(rendered(t, r, format))
		for _, n := range r.Nodes {
			if c := strings.Count(out, n.Addr+"<") + strings.Count(out, n.Addr+"`"); c < 2 {
				t.Errorf("%s: node %s appears %d times, want it in the picture or list and in the table", format, n.Addr, c)
			}
		}
		if !strings.Contains(out, "10.9.9.9:1") {
			t.Errorf("%s: the missing primary is not named", format)
		}
	}
	md := string(rendered(t, r, "markdown"))
	for _, want := range []string{
		"- primary `10.0.0.7:1`",
		"  - replica `10.0.0.8:1`",
		"    - replica `10.0.0.9:1`",
		"- Replicas of 10.9.9.9:1 (not in this run)\n  - replica `10.0.0.1:1`",
		"- Replicas whose primary is unknown\n  - replica `10.0.0.2:1`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown topology lacks %q:\n%s", want, md)
		}
	}
}

func TestHTMLStatusFollowsExitCode(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*report.Run)
		class string
		word  string
	}{
		{"audit-unsafe", nil, "unsafe", "UNSAFE"},
		{"audit-safe", nil, "safe", "SAFE"},
		{"probe-cluster", nil, "unknown", "UNKNOWN"},
		{"vet-only", nil, "unsafe", "ACTION NEEDED"},
		{"vet-only", func(r *report.Run) { r.Findings = nil }, "safe", "NO PROBLEMS FOUND"},
		{"audit-safe", func(r *report.Run) { r.Errors = []report.Error{{Where: "10.0.0.9:6379", Message: "i/o timeout"}} }, "failed", "INCOMPLETE"},
	} {
		r := fixture.Load(t, tc.name)
		if tc.edit != nil {
			tc.edit(r)
		}
		out := string(rendered(t, r, "html"))
		want := `<div class="banner ` + tc.class + `" role="status">` + "\n" + `<div class="word">` + tc.word + `</div>`
		if !strings.Contains(out, want) {
			t.Errorf("%s (exit %d): want banner %s %s", tc.name, report.ExitCode(r), tc.class, tc.word)
		}
		// The exit status is tool language: the technical appendix
		// keeps it, the banner does not.
		if !strings.Contains(out, "<dt>Exit status</dt><dd><code>"+string(rune('0'+report.ExitCode(r)))+" (") {
			t.Errorf("%s: the technical appendix does not give the exit status", tc.name)
		}
		if strings.Contains(out, "exit status") {
			t.Errorf("%s: a client-facing part says \"exit status\"", tc.name)
		}
	}
}

func TestReportsSayWhatIsAbsent(t *testing.T) {
	vet := string(rendered(t, fixture.Load(t, "vet-only"), "html"))
	for _, id := range []string{"topology", "nodes", "evidence", "verdict", "suppressed"} { // nothing to show: left out
		if strings.Contains(vet, `<section id="`+id+`">`) {
			t.Errorf("vet-only report has a %s section", id)
		}
	}
	for _, want := range []string{"✗ servers not checked in this run", "✓ lock code analysed (./...)"} {
		if !strings.Contains(vet, want) {
			t.Errorf("vet-only report lacks %q", want)
		}
	}
	probe := string(rendered(t, fixture.Load(t, "probe-cluster"), "html"))
	if strings.Contains(probe, "Findings in the code") {
		t.Errorf("probe-only report has a code findings section")
	}
	for _, want := range []string{"✗ lock code not analysed in this run", "✓ 6 servers probed, cluster topology"} {
		if !strings.Contains(probe, want) {
			t.Errorf("probe-only report lacks %q", want)
		}
	}
	// vet does not derive the commands the code relies on: no uses is not
	// "none"; when the verdict says the uses were derived from the code
	// (audit, preflight), it is. The command's name alone claims nothing.
	for _, tc := range []struct {
		cmd      string
		verdict  *report.Verdict
		claim    bool
		scenario string
	}{
		{"vet", nil, false, "vet"},
		{"audit", nil, false, "a run named audit without a verdict"},
		{"audit", &report.Verdict{FromCode: false}, false, "uses named by -uses"},
		{"audit", &report.Verdict{FromCode: true}, true, "uses derived from the code"},
	} {
		r := fixture.Load(t, "vet-only")
		r.Command, r.Uses, r.Verdict = tc.cmd, nil, tc.verdict
		if r.Verdict != nil {
			r.Verdict.Paths = report.NewVerdict().Paths
		}
		for _, format := range []string{"html", "markdown"} {
			if got := strings.Contains(string(rendered(t, r, format)), "relies on none of"); got != tc.claim {
				t.Errorf("%s, %s: claims the code relies on no command = %t, want %t", tc.scenario, format, got, tc.claim)
			}
		}
	}
	md := string(rendered(t, fixture.Load(t, "vet-only"), "markdown"))
	if strings.Contains(md, "## Topology") || !strings.Contains(md, "✗ servers not checked in this run") {
		t.Errorf("vet-only Markdown does not say the servers were not checked, or shows a topology")
	}
}

// Many small groups (cluster shards) are laid out as columns side by side,
// not one tree per row: ten 3-node shards fit in three rows of four.
func TestHTMLClusterPictureIsCompact(t *testing.T) {
	r := report.New("probe", "v1")
	r.Topology = "cluster"
	for s := 0; s < 10; s++ {
		for i := 0; i < 3; i++ {
			n := report.Node{Addr: fmt.Sprintf("10.2.%d.%d:7000", s, i), Role: "replica", Promotable: report.PromotableYes, Server: "valkey", Version: "9.2.0",
				Lua: report.Yes, DELIFEQ: report.Yes, DELEX: report.Yes, SetIFEQ: report.Yes, Shard: fmt.Sprintf("shard-%02d", s), Primary: fmt.Sprintf("10.2.%d.0:7000", s)}
			if i == 0 {
				n.Role, n.Primary = "primary", ""
			}
			r.Nodes = append(r.Nodes, n)
		}
	}
	out := string(rendered(t, r, "html"))
	xs, ys := map[string]bool{}, map[string]bool{}
	for _, m := range regexp.MustCompile(`<g class="node v0 prom-yes" transform="translate\((\d+),(\d+)\)">\n<title>10\.2\.\d\.0:7000<`).FindAllStringSubmatch(out, -1) {
		xs[m[1]], ys[m[2]] = true, true
	}
	if len(xs) != 4 || len(ys) != 3 {
		t.Errorf("primaries in %d columns and %d rows, want 4 and 3", len(xs), len(ys))
	}
	h := regexp.MustCompile(`<svg [^>]*height="(\d+)"`).FindStringSubmatch(out)
	if h == nil {
		t.Fatal("no svg height")
	}
	if height, _ := strconv.Atoi(h[1]); height > 1100 {
		t.Errorf("picture height %d, want under 1100 px", height)
	}
}
