package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/internal/tooltest"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
	"github.com/lockaudit/lockaudit/rules"
)

// The client's report (docs/report.md) from real audits: the bundled
// example, in a git work tree of its own, against the three test fleets,
// with an engagement and notes. Each run's JSON is made stable (ports,
// times, the probe's clock readings, the tool's version) and every format
// rendered from it is a golden file under testdata/report; the reports the
// audit wrote itself are checked to be what render makes of its JSON.

// notesFixture is the consultant's notes: Markdown with a link, code, and
// raw HTML that must be shown as text.
const notesFixture = `## Scope

Agreed with **ACME** on 2025-06-01: the lock code of the shop and its staging fleet
([ticket OPS-12](https://tickets.example/OPS-12)).

- Out of scope: the ` + "`search`" + ` service.
- Raw HTML stays text: <b onclick="alert(1)">bold?</b>
`

// The stand-in times of the audits in the goldens: the first, and the one
// after remediation.
const (
	firstAudit  = "2025-06-02T09:00:00Z"
	secondAudit = "2025-06-09T09:00:00Z"
)

// commitDate is the date of every commit of the example's work tree.
const commitDate = "2025-06-01T10:00:00Z"

// gitExample copies the bundled example into a git work tree with one
// commit of fixed author and dates, so its revision is the same on every
// machine (for as long as the example does not change).
func gitExample(t *testing.T) string {
	t.Helper()
	tooltest.Git(t)
	dir := copyExample(t)
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "example")
	return dir
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=lockaudit", "-c", "user.email=lockaudit@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+commitDate, "GIT_COMMITTER_DATE="+commitDate, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// reportFleets are the test fleets of the report goldens; each returns
// its servers, primary first.
var reportFleets = []struct {
	name  string
	start func(t *testing.T) []*servertest.Server
}{
	{"all-upgraded", func(t *testing.T) []*servertest.Server {
		return servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
	}},
	{"mid-upgrade", func(t *testing.T) []*servertest.Server {
		return servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	}},
	{"lua-unloaded", func(t *testing.T) []*servertest.Server {
		s := servertest.Start(t, servertest.Config{ModuleCommand: true})
		s.UnloadLua(t)
		return []*servertest.Server{s}
	}},
}

var reportFormats = map[string]string{"json": "run.json", "text": "report.txt", "markdown": "report.md", "html": "report.html", "sarif": "report.sarif"}

// auditReport runs a real audit of dir against the fleet seeded at seed,
// writing every format into out; extra are more flags. It returns the
// exit code.
func auditReport(t *testing.T, dir, seed, out string, extra ...string) int {
	t.Helper()
	notes := filepath.Join(out, "notes.md")
	if err := os.WriteFile(notes, []byte(notesFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"audit", "-C", dir, "-addr", seed, "-title", "Lock audit: example shop", "-client", "ACME Corp", "-system", "shop",
		"-environment", "staging", "-author", "J. Doe", "-notes", notes}
	args = append(args, extra...)
	for _, f := range []string{"json", "text", "markdown", "html", "sarif"} {
		args = append(args, "-o", filepath.Join(out, reportFormats[f]))
	}
	_, stderr, code := runIn(t, out, nil, args...)
	if code != report.ExitFindings && code != report.ExitOK {
		t.Fatalf("audit: exit %d\n%s", code, stderr)
	}
	return code
}

var (
	timeRE  = regexp.MustCompile(`"(time|start|end)": "[^"]*"`)
	clockRE = regexp.MustCompile(`offset -?[0-9.]+[µnm]?s from the local clock, round trip [0-9.]+[µnm]?s`)
	toolRE  = regexp.MustCompile(`("tool": \{\n\s*"name": "lockaudit",\n\s*"version": )"[^"]*"`)
	sinceRE = regexp.MustCompile(`"tool": "lockaudit [^"]*"`)
	portRE  = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)
)

// stabilize makes a run's JSON the same on every machine: the servers'
// addresses become 127.0.0.1:7001, 7002, ... in the order given, the run's
// and the probe's times become when, the tool's version is fixed, and the
// probe's clock readings zeroed. revs
// maps git revisions to stand-ins. The run is decoded, sorted again (the
// stand-in ports may sort node findings differently) and returned.
func stabilize(t *testing.T, data []byte, addrs []string, revs map[string]string, when string) *report.Run {
	t.Helper()
	s := string(data)
	known := map[string]string{}
	for i, a := range addrs {
		known[a] = "127.0.0.1:" + strconv.Itoa(7001+i)
	}
	s = portRE.ReplaceAllStringFunc(s, func(a string) string {
		if r, ok := known[a]; ok {
			return r
		}
		t.Fatalf("an address no server of the test has: %s", a)
		return a
	})
	// The runs' and the probe's times, not the commit's (which is fixed).
	s = timeRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.Contains(m, commitDate) {
			return m
		}
		return timeRE.ReplaceAllString(m, `"$1": "`+when+`"`)
	})
	s = clockRE.ReplaceAllString(s, "offset 0s from the local clock, round trip 0s")
	s = toolRE.ReplaceAllString(s, `$1"(devel)"`)
	s = sinceRE.ReplaceAllString(s, `"tool": "lockaudit (devel)"`)
	for rev, stand := range revs {
		s = strings.ReplaceAll(s, rev, stand)
	}
	r, err := report.DecodeRun([]byte(s))
	if err != nil {
		t.Fatalf("the stabilized run does not decode: %v\n%s", err, s)
	}
	r.Sort()
	sort.SliceStable(r.Nodes, func(i, j int) bool { return r.Nodes[i].Addr < r.Nodes[j].Addr })
	// A server finding's ID derives from its node's address, which was
	// random: drop it, so the reports derive it from the stable one.
	for i := range r.Findings {
		if r.Findings[i].Node != "" {
			r.Findings[i].ID = ""
		}
	}
	if c := r.Since; c != nil {
		for i := range c.Findings {
			if c.Findings[i].Finding.Node != "" {
				c.Findings[i].Finding.ID = ""
			}
		}
	}
	return r
}

func renderRun(t *testing.T, r *report.Run, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Render(&buf, r, format); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// addrsOf lists servers' addresses.
func addrsOf(ss []*servertest.Server) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Addr)
	}
	return out
}

func TestAuditReportGoldens(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	dir := gitExample(t)
	rev := gitIn(t, dir, "rev-parse", "HEAD")
	for _, fl := range reportFleets {
		t.Run(fl.name, func(t *testing.T) {
			servers := fl.start(t)
			out := t.TempDir()
			auditReport(t, dir, servers[0].Addr, out)
			data, err := os.ReadFile(filepath.Join(out, "run.json"))
			if err != nil {
				t.Fatal(err)
			}
			// The reports the audit wrote are what render makes of its
			// JSON: the engagement, notes, source and plan are all in it.
			raw, err := report.DecodeRun(data)
			if err != nil {
				t.Fatal(err)
			}
			checkRecorded(t, raw, rev)
			for format, name := range reportFormats {
				written, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				if again := renderRun(t, raw, format); !bytes.Equal(written, again) {
					line, g, w := golden.FirstDiff(string(again), string(written))
					t.Errorf("%s: render of run.json differs from the audit's own report at line %d:\n%q\n%q", name, line, g, w)
				}
			}
			stable := stabilize(t, data, addrsOf(servers), map[string]string{rev: "1111111111111111111111111111111111111111"}, firstAudit)
			for format := range reportFormats {
				ext := map[string]string{"json": "json", "text": "txt", "markdown": "md", "html": "html", "sarif": "sarif"}[format]
				got := renderRun(t, stable, format)
				golden.Check(t, filepath.Join("testdata", "report", fl.name+"."+ext), got)
				if format == "sarif" {
					if err := sarifcheck.Validate(got); err != nil {
						t.Errorf("%s SARIF: %v", fl.name, err)
					}
				}
			}
			checkPlan(t, fl.name, stable)
		})
	}
}

// checkRecorded: what lockaudit records by itself is in the run.
func checkRecorded(t *testing.T, r *report.Run, rev string) {
	t.Helper()
	if en := r.Engagement; en == nil || en.Client != "ACME Corp" || en.Title != "Lock audit: example shop" || en.Notes != notesFixture {
		t.Errorf("engagement %+v", r.Engagement)
	}
	if s := r.Source; s == nil || s.Module != "example.com/orders" || s.VCS != "git" || s.Revision != rev || s.Time != commitDate || s.Modified {
		t.Errorf("source %+v, want the example's module at %s, %s, unmodified", r.Source, rev, commitDate)
	}
	if w := r.Probed; w == nil || w.Start == "" || w.End < w.Start {
		t.Errorf("probe window %+v", r.Probed)
	}
}

// checkPlan checks each fleet's plan against what the test knows of the
// fleet, independently of the goldens.
func checkPlan(t *testing.T, fleet string, r *report.Run) {
	t.Helper()
	p := report.PlanOf(r)
	var kinds []string
	for _, s := range p.Steps {
		kinds = append(kinds, s.Kind)
	}
	want := map[string]string{
		"all-upgraded": "code config verify",         // nothing blocks a path
		"mid-upgrade":  "upgrade code config verify", // the 8.1 replica lacks DELIFEQ
		"lua-unloaded": "upgrade code config verify", // the primary has no Lua engine
	}[fleet]
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("plan steps %q, want %q", got, want)
	}
	for _, s := range p.Steps {
		switch s.Kind {
		case report.PlanUpgrade:
			if len(s.Nodes) != 1 {
				t.Fatalf("upgrade step: %+v", s.Nodes)
			}
			wantNode := map[string]string{"mid-upgrade": "127.0.0.1:7002 delifeq", "lua-unloaded": "127.0.0.1:7001 lua"}[fleet]
			if got := fmt.Sprintf("%s %s", s.Nodes[0].Addr, s.Nodes[0].Lacks[0]); got != wantNode {
				t.Errorf("upgrade step names %s, want %s", got, wantNode)
			}
		case report.PlanCode:
			// The counts are the findings', and -fix's count is the number
			// of findings marked autofix, which TestAuditDiffAfterFix
			// checks against what -fix really fixes.
			total, auto := 0, 0
			for _, g := range s.Code {
				total += g.Findings
				auto += g.Autofix
			}
			active, marked := 0, 0
			for _, f := range r.Active() {
				if f.Pos != nil {
					active++
					if f.Autofix {
						marked++
					}
				}
			}
			if total != active || auto != marked || auto == 0 {
				t.Errorf("code step: %d findings, %d by -fix; the run has %d active code findings, %d marked autofix", total, auto, active, marked)
			}
		case report.PlanConfig:
			// The test servers run with appendonly no: LA205 on every
			// node that can become primary.
			for _, c := range s.Config {
				if c.Rule == "LA205" && c.Setting == "appendonly" && (c.Current != "no" || c.Recommended != "yes") {
					t.Errorf("config change %+v", c)
				}
			}
		}
	}
}

// TestAuditDiffAfterFix is the before/after pair of issue 13: the example
// audited against a fleet with a promotable 8.1 replica; then -fix applied
// to the code and the replica replaced by a 9.1 one at the same address;
// audited again with -since; and the two runs compared by lockaudit diff
// in every format.
func TestAuditDiffAfterFix(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	dir := gitExample(t)
	revBefore := gitIn(t, dir, "rev-parse", "HEAD")
	servers := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	primary, old := servers[0], servers[1]
	work := t.TempDir()
	before := filepath.Join(work, "before")
	after := filepath.Join(work, "after")
	for _, d := range []string{before, after} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Both audits judge the code at the release the team aims for
	// (-target valkey-9.0), as vet -fix does.
	auditReport(t, dir, primary.Addr, before, "-target", "valkey-9.0")
	beforeRun := readJSONRun(t, filepath.Join(before, "run.json"))

	// Remediation: -fix on the code, committed; the 8.1 replica replaced
	// by a 9.1 one at its address.
	if _, stderr, code := runIn(t, work, nil, "vet", "-C", dir, "-fix", "./..."); code != report.ExitFindings {
		t.Fatalf("vet -fix: exit %d\n%s", code, stderr)
	}
	gitIn(t, dir, "commit", "-q", "-a", "-m", "lockaudit vet -fix")
	revAfter := gitIn(t, dir, "rev-parse", "HEAD")
	port := old.Port
	old.Stop(t)
	upgraded := servertest.Start(t, servertest.Config{Port: port})
	upgraded.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(primary.Port))
	upgraded.WaitReplicating(t, primary)
	code := auditReport(t, dir, primary.Addr, after, "-since", filepath.Join(before, "run.json"), "-target", "valkey-9.0")
	afterRun := readJSONRun(t, filepath.Join(after, "run.json"))

	// What the test knows: every finding -fix would fix before is gone,
	// every other code finding is unchanged, the replica is upgraded and
	// the release became safe.
	c := afterRun.Since
	if c == nil {
		t.Fatal("audit -since: the run has no comparison")
	}
	var wantFixed, wantUnchanged, gotFixed, gotUnchanged []string
	var fixedFiles, newOnes []string
	for _, f := range beforeRun.Active() {
		switch {
		case f.Pos != nil && f.Autofix:
			wantFixed = append(wantFixed, string(f.Rule)+" "+f.Pos.File)
		case f.Pos != nil:
			wantUnchanged = append(wantUnchanged, string(f.Rule)+" "+f.Pos.File)
		}
	}
	for _, fc := range c.Findings {
		if fc.Finding.Pos == nil {
			continue
		}
		switch fc.Change {
		case report.ChangeFixed:
			gotFixed = append(gotFixed, string(fc.Finding.Rule)+" "+fc.Finding.Pos.File)
			fixedFiles = append(fixedFiles, fc.Finding.Pos.File)
		case report.ChangeUnchanged:
			gotUnchanged = append(gotUnchanged, string(fc.Finding.Rule)+" "+fc.Finding.Pos.File)
		case report.ChangeNew:
			newOnes = append(newOnes, string(fc.Finding.Rule)+" "+fc.Finding.Pos.File)
		}
	}
	// A fix can leave a lesser finding on the line it rewrote: LA103's
	// plain DEL becomes a DELIFEQ whose reply is only error-checked
	// (LA108). diff reports it as new, in a file -fix changed.
	for _, n := range newOnes {
		if !slices.Contains(fixedFiles, strings.Fields(n)[1]) {
			t.Errorf("a new finding in a file -fix did not change: %s", n)
		}
	}
	if strings.Join(newOnes, ", ") != "LA108 inventory/inventory.go" {
		t.Errorf("new findings after -fix: %v, want the LA108 on the DELIFEQ that replaced inventory's plain DEL", newOnes)
	}
	for _, l := range [][]string{wantFixed, wantUnchanged, gotFixed, gotUnchanged} {
		sort.Strings(l)
	}
	if len(wantFixed) == 0 || strings.Join(gotFixed, ", ") != strings.Join(wantFixed, ", ") {
		t.Errorf("fixed code findings:\n got %v\nwant %v (the findings marked autofix before)", gotFixed, wantFixed)
	}
	if strings.Join(gotUnchanged, ", ") != strings.Join(wantUnchanged, ", ") {
		t.Errorf("unchanged code findings:\n got %v\nwant %v", gotUnchanged, wantUnchanged)
	}
	var replica *report.NodeChange
	for i, n := range c.Nodes {
		if n.Addr == old.Addr {
			replica = &c.Nodes[i]
		}
	}
	if replica == nil || replica.Change != report.NodeUpgraded || replica.OldServer != "Valkey 8.1.1" || replica.NewServer != "Valkey 9.1.2" {
		t.Errorf("the replaced replica: %+v, want upgraded from Valkey 8.1.1 to Valkey 9.1.2", replica)
	}
	release := c.Verdict[rules.NativeRelease]
	if release.Old != report.Unsafe || release.New != report.Safe {
		t.Errorf("native_release %s -> %s, want unsafe -> safe", release.Old, release.New)
	}
	la201Fixed := false
	for _, fc := range c.Findings {
		la201Fixed = la201Fixed || (fc.Change == report.ChangeFixed && fc.Finding.Rule == "LA201" && fc.Finding.Node == old.Addr)
	}
	if !la201Fixed {
		t.Errorf("LA201 on %s is not listed as fixed", old.Addr)
	}
	if code != report.ExitFindings {
		t.Errorf("the after audit exits %d: findings fixed by hand remain, want 3", code)
	}
	html, _ := os.ReadFile(filepath.Join(after, "report.html"))
	if !bytes.Contains(html, []byte(`<section id="since">`)) || !bytes.Contains(html, []byte("<b>upgraded</b>")) {
		t.Errorf("the after report does not embed the comparison")
	}

	// lockaudit diff, in every format, of the two runs made stable.
	revs := map[string]string{revBefore: "1111111111111111111111111111111111111111", revAfter: "2222222222222222222222222222222222222222"}
	addrs := []string{primary.Addr, old.Addr}
	stableDir := t.TempDir()
	stableBefore := stabilize(t, mustRead(t, filepath.Join(before, "run.json")), addrs, revs, firstAudit)
	stableAfter := stabilize(t, mustRead(t, filepath.Join(after, "run.json")), addrs, revs, secondAudit)
	// The embedded comparison was ordered by the real addresses: compare
	// the stable runs again (the comparison itself is checked above).
	stableAfter.Since = report.Compare(stableBefore, stableAfter)
	for name, r := range map[string]*report.Run{"before.json": stableBefore, "after.json": stableAfter} {
		if err := os.WriteFile(filepath.Join(stableDir, name), renderRun(t, r, "json"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden.Check(t, filepath.Join("testdata", "report", "after-since.html"), renderRun(t, stableAfter, "html"))
	golden.Check(t, filepath.Join("testdata", "report", "after-since.md"), renderRun(t, stableAfter, "markdown"))
	exts := map[string]string{"text": "txt", "markdown": "md", "html": "html", "json": "json", "sarif": "sarif"}
	for format, ext := range exts {
		stdout, stderr, dcode := runIn(t, stableDir, nil, "diff", "-format", format, "before.json", "after.json")
		if dcode != report.ExitFindings {
			t.Errorf("diff -format %s: exit %d, want 3 (a new code warning)\n%s", format, dcode, stderr)
		}
		golden.Check(t, filepath.Join("testdata", "report", "diff."+ext), []byte(stdout))
		if format == "sarif" {
			if err := sarifcheck.Validate([]byte(stdout)); err != nil {
				t.Errorf("diff SARIF: %v", err)
			}
		}
	}
	// The comparison is the same whether embedded or standalone.
	if !strings.Contains(string(mustRead(t, filepath.Join(stableDir, "after.json"))), `"change": "upgraded"`) {
		t.Errorf("after.json carries no since.nodes upgrade")
	}
}

func readJSONRun(t *testing.T, path string) *report.Run {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.DecodeRun(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var (
	scratchRE = regexp.MustCompile(`lockaudit:conform:\{[0-9a-f]+\}`)
	pttlRE    = regexp.MustCompile(`PTTL [1-9][0-9]*`)
	idleRE    = regexp.MustCompile(`idle [0-9][0-9a-z]*`)
)

// TestScanConformReportGoldens: the scan and conform tables of the HTML
// and Markdown reports, from real runs. scan reads a replication fleet
// seeded with lock keys with and without a TTL; conform puts a 9.1
// primary and its 8.1 replica through the native lock steps. Each run's
// reports are what render makes of its JSON; the stable run's HTML and
// Markdown are golden files, and the tables' content is checked against
// what the test seeded, independently of the goldens.
func TestScanConformReportGoldens(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) []*servertest.Server
		args  func(seed string) []string
		want  []string // in both the HTML and the Markdown, after stabilizing
	}{
		{"scan", func(t *testing.T) []*servertest.Server {
			n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0})
			n[0].Do(t, "SET", "lock:stuck", "some-token")
			n[0].Do(t, "SET", "lock:ok", "t", "PX", "600000")
			n[0].Do(t, "SET", "cache:1", "v")
			servertest.WaitOffsets(t, n[0], n[1])
			return n
		}, func(seed string) []string {
			return []string{"scan", "-client", "ACME Corp", "-environment", "staging", seed}
		},
			[]string{"Scan coverage", "Findings on the servers", `lock:stuck`, "data scanned for lock keys", "ACME Corp", "Servers read", "Sign-off"}},
		{"conform", func(t *testing.T) []*servertest.Server {
			return servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
		}, func(seed string) []string {
			return []string{"conform", "-write-scratch-key", "-client", "ACME Corp", "-environment", "staging", seed}
		},
			[]string{"ACME Corp", "Servers read", "Sign-off", "Conformance by node", "Findings on the servers", "extend without PX (LA104 trap)", "if promoted: release (DELIFEQ)", "LA213", "servers put through the native lock steps"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			servers := tc.start(t)
			out := t.TempDir()
			args := tc.args(servers[0].Addr)
			for _, name := range []string{"run.json", "report.md", "report.html"} {
				args = append(args, "-o", filepath.Join(out, name))
			}
			if _, stderr, code := runIn(t, out, nil, args...); code != report.ExitFindings {
				t.Fatalf("%s: exit %d, want 3 (the seeded lock without a TTL; the 8.1 replica lacks DELIFEQ)\n%s", tc.name, code, stderr)
			}
			data := mustRead(t, filepath.Join(out, "run.json"))
			raw, err := report.DecodeRun(data)
			if err != nil {
				t.Fatal(err)
			}
			for format, name := range map[string]string{"markdown": "report.md", "html": "report.html"} {
				if again := renderRun(t, raw, format); !bytes.Equal(mustRead(t, filepath.Join(out, name)), again) {
					t.Errorf("%s: render of run.json differs from the run's own report", name)
				}
			}
			// Stable: the random scratch prefix, the TTLs read back and
			// the keys' idle times vary from run to run.
			s := scratchRE.ReplaceAllString(string(data), "lockaudit:conform:{0123456789abcdef}")
			s = pttlRE.ReplaceAllString(s, "PTTL 30000")
			s = idleRE.ReplaceAllString(s, "idle 0s")
			stable := stabilize(t, []byte(s), addrsOf(servers), nil, firstAudit)
			for format, ext := range map[string]string{"markdown": "md", "html": "html"} {
				got := renderRun(t, stable, format)
				for _, w := range tc.want {
					if !bytes.Contains(got, []byte(w)) {
						t.Errorf("%s report lacks %q", format, w)
					}
				}
				// Parts with nothing to show are left out: scan and
				// conform judge no lock path.
				for _, absent := range []string{"Verdict by lock path", "Suppressed findings"} {
					if bytes.Contains(got, []byte(absent)) {
						t.Errorf("%s report has an empty part %q", format, absent)
					}
				}
				golden.Check(t, filepath.Join("testdata", "report", tc.name+"."+ext), got)
			}
			switch tc.name {
			case "scan":
				// One shard, read completely, four keys, two of them lock
				// keys, one finding: the seeded lock without a TTL.
				sh := stable.Scan.Shards
				if len(sh) != 1 || !sh[0].Complete || sh[0].Keys != 3 || sh[0].LockKeys != 2 || sh[0].Findings != 1 {
					t.Errorf("scan coverage %+v", sh)
				}
			case "conform":
				// The 9.1 primary passes every step; its 8.1 replica lacks
				// DELIFEQ, and nothing else fails.
				for _, n := range stable.Conform {
					for _, st := range n.Steps {
						bad := st.Status != "pass" && st.Status != "skipped"
						if bad != (n.Node == "127.0.0.1:7002" && st.Step == "if promoted: release (DELIFEQ)") {
							t.Errorf("%s %s: %s (%s)", n.Node, st.Step, st.Status, st.Got)
						}
					}
				}
			}
		})
	}
}
