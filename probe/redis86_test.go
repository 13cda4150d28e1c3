package probe

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// TestProbeRedis86: a Redis 8.6 node has DELEX and SET IFEQ and no
// DELIFEQ; without -uses the probe assumes Redis's native path (DELEX,
// SET IFEQ), says so, and finds it safe. As the application user of the
// field (+@all -@dangerous) INFO, ROLE and CONFIG GET are refused: the
// verdict is unknown and each permission is named. With CONFIG renamed
// away, the release and extend stay decidable.
func TestProbeRedis86(t *testing.T) {
	servertest.Require(t, servertest.Redis86)
	s := servertest.Start(t, servertest.Config{Version: servertest.Redis86})
	run := probeRun(t, Options{Addrs: []string{s.Addr}})
	n := run.Nodes[0]
	if n.Server != "redis" || n.DELIFEQ != report.No || n.DELEX != report.Yes || n.SetIFEQ != report.Yes || n.Lua != report.Yes {
		t.Errorf("node %+v, want Redis with DELEX, SET IFEQ and Lua, without DELIFEQ", n)
	}
	if run.UsesFrom != report.UsesAssumed || len(run.Uses) != 2 || run.Uses[0].Command != rules.UseDELEX || run.Uses[1].Command != rules.UseIFEQ {
		t.Errorf("uses %+v from %s, want delex, ifeq assumed", run.Uses, run.UsesFrom)
	}
	if code := report.ExitCode(run); code != report.ExitOK || run.Verdict.Of(rules.NativeRelease).Safe != report.Yes {
		t.Errorf("exit %d, release %s; want 0, safe", code, run.Verdict.Of(rules.NativeRelease).Word())
	}

	// -uses delifeq on Redis: unsafe, and the plan says what works on
	// Redis (DELEX IFEQ, or Valkey), never to upgrade to a DELIFEQ.
	run = probeRun(t, Options{Addrs: []string{s.Addr}, Uses: []rules.Command{rules.UseDELIFEQ}})
	if run.Verdict.Of(rules.NativeRelease).Safe != report.No {
		t.Errorf("-uses delifeq: release %s, want unsafe", run.Verdict.Of(rules.NativeRelease).Word())
	}
	var do []string
	for _, st := range report.PlanOf(run).Steps {
		for _, n := range st.Nodes {
			do = append(do, n.Do...)
		}
	}
	if got := strings.Join(do, "\n"); !strings.Contains(got, "release with DELEX key IFEQ token instead of DELIFEQ") || strings.Contains(got, "with DELIFEQ") {
		t.Errorf("-uses delifeq: the plan says\n%s\nwant DELEX IFEQ, never a release with DELIFEQ", got)
	}

	s.AddUser(t, "app", "app-pw", "~* &* +@all -@dangerous")
	run = probeRun(t, Options{Addrs: []string{s.Addr}, User: "app", Password: "app-pw"})
	if code := report.ExitCode(run); code != report.ExitUnknown {
		t.Errorf("+@all -@dangerous: exit %d, want 4", code)
	}
	var la208 []string
	for _, f := range run.Findings {
		if f.Rule == "LA208" {
			la208 = append(la208, f.Message)
		}
	}
	all := strings.Join(la208, "\n")
	for _, perm := range []string{"+info", "+role", "+config|get"} {
		if !strings.Contains(all, "grant the probe user "+perm+" on this node") {
			t.Errorf("+@all -@dangerous: no LA208 names %s:\n%s", perm, all)
		}
	}

	renamed := servertest.Start(t, servertest.Config{Version: servertest.Redis86, Args: []string{"--rename-command", "CONFIG", ""}})
	run = probeRun(t, Options{Addrs: []string{renamed.Addr}})
	if v := run.Verdict; v.Of(rules.NativeRelease).Safe != report.Yes || v.Of(rules.NativeExtend).Safe != report.Yes || report.ExitCode(run) != report.ExitOK {
		t.Errorf("CONFIG renamed: release %s, extend %s, exit %d; want safe, safe, 0", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), report.ExitCode(run))
	}
	found := false
	for _, f := range run.Findings {
		found = found || f.Rule == "LA208" && f.Subject == "CONFIG GET"
	}
	if !found {
		t.Errorf("CONFIG renamed: no LA208 for CONFIG GET: %+v", run.Findings)
	}
}
