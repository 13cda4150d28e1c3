package report_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/rules"
)

// Configuration changes: only for a node with the rule's finding, and only
// the settings that differ from the recommendation.
func TestPlanConfigOnlyWhereItDiffers(t *testing.T) {
	r := report.New("probe", "x")
	r.Verdict = report.NewVerdict()
	r.Nodes = []report.Node{
		{Addr: "127.0.0.1:1", Role: "primary", Config: map[string]string{"appendonly": "yes", "appendfsync": "everysec", "min-replicas-to-write": "0", "min-replicas-max-lag": "10"}},
		{Addr: "127.0.0.1:2", Role: "replica", Config: map[string]string{"appendonly": "yes", "appendfsync": "everysec"}},
	}
	r.Findings = []report.Finding{
		{Rule: "LA205", Severity: rules.Info, Message: "appendonly yes, appendfsync everysec", Node: "127.0.0.1:1"},
		{Rule: "LA204", Severity: rules.Info, Message: "min-replicas-to-write 0", Node: "127.0.0.1:1"},
	}
	p := report.PlanOf(r)
	var got []string
	for _, s := range p.Steps {
		for _, c := range s.Config {
			got = append(got, c.Node+" "+c.Setting+" "+c.Current+"->"+c.Recommended)
		}
	}
	want := "127.0.0.1:1 min-replicas-to-write 0->1, 127.0.0.1:1 appendfsync everysec->always"
	if strings.Join(got, ", ") != want {
		t.Errorf("config changes %v, want %s (no change for a setting already as recommended, none for a node without the finding)", got, want)
	}
}

// The plan orders servers to upgrade: replicas before their primary.
func TestPlanUpgradesReplicasFirst(t *testing.T) {
	r := fixture.Load(t, "audit-unsafe")
	p := report.PlanOf(r)
	if p == nil || len(p.Steps) == 0 {
		t.Fatal("no plan")
	}
	for _, s := range p.Steps {
		if s.Kind != report.PlanUpgrade {
			continue
		}
		seenPrimary := false
		for _, w := range s.Nodes {
			if w.Role == report.RolePrimary {
				seenPrimary = true
			} else if seenPrimary {
				t.Errorf("replica %s after a primary in %+v", w.Addr, s.Nodes)
			}
		}
		return
	}
	t.Errorf("the unsafe fixture's plan has no upgrade step: %+v", p.Steps)
}

// hostileWords are values a hostile saved run puts where a plan's verify
// commands take a word from the run: each would run a command (create a
// file) if pasted into a shell unquoted.
var hostileWords = []string{"$(touch pwned1)", "`touch pwned2`", "x;touch pwned3", "it's$(touch pwned4)", "a\ntouch pwned5", "~root/*", "a b|touch pwned6"}

// TestPlanVerifyShellQuoted: every command a plan shows (Verify lines) is
// one a person can paste: run by a real shell, each value from the run —
// node addresses, package patterns, the target — arrives as one word, as
// it was, and nothing in it runs.
func TestPlanVerifyShellQuoted(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	kinds := map[string]bool{}
	for _, name := range append(fixture.Names, "full") {
		r := fixture.Load(t, name)
		// Each node gets a hostile address, the same wherever the run
		// names it; the patterns and the target are hostile too.
		addrs := map[string]string{}
		for i := range r.Nodes {
			n := &r.Nodes[i]
			addrs[n.Addr] = n.Addr + hostileWords[i%len(hostileWords)]
		}
		re := func(a string) string {
			if h, ok := addrs[a]; ok {
				return h
			}
			return a
		}
		for i := range r.Nodes {
			r.Nodes[i].Addr, r.Nodes[i].Primary = re(r.Nodes[i].Addr), re(r.Nodes[i].Primary)
		}
		for i := range r.Findings {
			r.Findings[i].Node = re(r.Findings[i].Node)
		}
		if r.Verdict != nil {
			for _, pv := range r.Verdict.Paths {
				for _, c := range pv.Checks {
					for k := range c.Reasons {
						c.Reasons[k].Node.Addr = re(c.Reasons[k].Node.Addr)
					}
				}
			}
		}
		if len(r.Packages) > 0 {
			r.Packages = append([]string{"./..."}, hostileWords...)
		}
		r.Target = "valkey-9.0" + hostileWords[0]
		for _, cmd := range []string{r.Command, "preflight"} {
			r.Command = cmd
			p := report.PlanOf(r)
			if p == nil {
				continue
			}
			for _, s := range p.Steps {
				for _, line := range s.Verify {
					kinds[s.Kind] = true
					argv := runShell(t, sh, line)
					for _, w := range hostileWords {
						if strings.Contains(line, w) && !slices.ContainsFunc(argv, func(a string) bool { return strings.Contains(a, w) }) {
							t.Errorf("%s: %q: %q did not arrive as one word: %q", name, line, w, argv)
						}
					}
				}
			}
		}
	}
	for _, k := range []string{report.PlanEvidence, report.PlanUpgrade, report.PlanCode, report.PlanConfig, report.PlanVerify} {
		if !kinds[k] {
			t.Errorf("no %s step among the fixture.Names' plans: the test covers less than it claims", k)
		}
	}
}

// runShell runs a verify line in a real shell, in an empty folder, with
// its program replaced by printf, and returns the words the program got.
// Anything the line ran is a file in the folder: a test failure.
func runShell(t *testing.T, sh, line string) []string {
	t.Helper()
	prog, rest, _ := strings.Cut(line, " ")
	if prog != "lockaudit" && prog != "valkey-cli" && prog != "redis-cli" {
		t.Fatalf("%q: not a lockaudit or CLI command", line)
	}
	dir := t.TempDir()
	cmd := exec.Command(sh, "-c", `printf '%s\0' `+rest)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%q does not run in sh: %v\n%s", line, err, out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("pasting %q into a shell ran a command: it created %s", line, entries[0].Name())
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}
