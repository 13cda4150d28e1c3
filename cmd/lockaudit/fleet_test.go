package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// These tests are issue 19's: every command that reads a fleet tells the
// same truth about it, on real servers (no fakes).

// la112Commands lists the commands LA112 reports in a run's findings
// ("DELIFEQ", "SET IFEQ").
func la112Commands(r *report.Run) map[string]int {
	out := map[string]int{}
	for _, f := range r.Active() {
		if f.Rule == "LA112" {
			cmd, _, _ := strings.Cut(f.Message, " needs ")
			out[strings.TrimPrefix(cmd, rules.MustGet("LA112").Title+": ")]++
		}
	}
	return out
}

// planText is every word the run's plan says.
func planText(r *report.Run) string {
	p := report.PlanOf(r)
	if p == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(p.Summary)
	for _, s := range p.Steps {
		b.WriteString("\n" + s.Title + "\n" + s.Why + "\n" + strings.Join(s.Verify, "\n"))
		for _, n := range s.Nodes {
			b.WriteString("\n" + strings.Join(n.Do, "\n"))
		}
	}
	return b.String()
}

// TestAuditDerivesTarget: audit without -target judges the code at the
// fleet's own release — the lowest among the nodes that can become
// primary — and says so; LA112 speaks only of commands a promotable node
// lacks; and the plan proposes no change onto a command the verdict calls
// unsafe.
func TestAuditDerivesTarget(t *testing.T) {
	t.Run("valkey-9.1 primary, promotable 8.1 replica", func(t *testing.T) {
		servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
		n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
		r, _, _ := auditJSON(t, "-addr", n[0].Addr)
		tf := r.TargetFrom
		if tf == nil || tf.Source != report.TargetFromFleet || strings.Join(tf.Releases, ",") != "valkey-8.1" || len(tf.Nodes) != 1 || tf.Nodes[0].Addr != n[1].Addr || r.Target != "valkey-8.1" {
			t.Fatalf("target %q from %+v, want valkey-8.1 derived from the fleet, set by %s", r.Target, tf, n[1].Addr)
		}
		if got := report.TargetText(r); !strings.Contains(got, "derived from the fleet") || !strings.Contains(got, n[1].Addr+" runs Valkey 8.1.1") {
			t.Errorf("the report's target line %q does not say why", got)
		}
		if got := la112Commands(r); got["SET IFEQ"] != 0 || got["DELIFEQ"] != 6 {
			t.Errorf("LA112 by command %v, want DELIFEQ's 6 sites (8.1 lacks it) and none for SET IFEQ (every promotable node has it)", got)
		}
		if r.Verdict.Of(rules.NativeRelease).Safe != report.No {
			t.Fatalf("release %s, want unsafe", r.Verdict.Of(rules.NativeRelease).Word())
		}
		for _, f := range r.Active() {
			if f.Autofix && strings.Contains(f.Message, "DELIFEQ key token") {
				t.Errorf("a fix moves code onto DELIFEQ, which the verdict calls unsafe: %s %s", f.Where(), f.Message)
			}
		}
		plan := planText(r)
		if strings.Contains(plan, "vet -fix` makes") && strings.Contains(plan, "onto DELIFEQ") {
			t.Errorf("the plan proposes fixes onto DELIFEQ:\n%s", plan)
		}
		if !strings.Contains(plan, "No native release command is on every node that can become primary: keep releasing locks as the code does now (a Lua script where it uses one) until "+n[1].Addr+" has DELIFEQ") {
			t.Errorf("the plan does not say to keep the current release until the replica changes:\n%s", plan)
		}
		var text strings.Builder
		render.Render(&text, r, "html")
		if !strings.Contains(text.String(), "derived from the fleet") {
			t.Errorf("the HTML report does not say which target it used and why")
		}
	})
	t.Run("redis-8.6", func(t *testing.T) {
		servertest.Require(t, servertest.Redis86)
		s := servertest.Start(t, servertest.Config{Version: servertest.Redis86})
		r, code, _ := auditJSON(t, "-addr", s.Addr)
		if tf := r.TargetFrom; tf == nil || tf.Source != report.TargetFromFleet || strings.Join(tf.Releases, ",") != "redis-8.6" {
			t.Fatalf("target from %+v, want redis-8.6 derived from the fleet", tf)
		}
		if got := la112Commands(r); got["SET IFEQ"] != 0 || got["DELIFEQ"] != 6 || got["DELEX"] != 0 {
			t.Errorf("LA112 by command %v, want DELIFEQ's 6 sites (no Redis has it), none for SET IFEQ", got)
		}
		v := r.Verdict
		if v.Of(rules.NativeRelease).Safe != report.No || v.Of(rules.NativeExtend).Safe != report.Yes {
			t.Errorf("release %s, extend %s; want unsafe (DELIFEQ on Redis), safe", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word())
		}
		reasons := strings.Join(v.Strings(), "\n")
		if !strings.Contains(reasons, "release with DELEX key IFEQ token instead of DELIFEQ ("+s.Addr+" has DELEX)") || strings.Contains(reasons, "release with DELIFEQ") || strings.Contains(reasons, "upgrade "+s.Addr) {
			t.Errorf("the advice on Redis must be DELEX IFEQ (or Valkey), never DELIFEQ nor an upgrade:\n%s", reasons)
		}
		for _, f := range r.Active() {
			if f.Pos != nil && strings.Contains(f.Message, "DELIFEQ key token") {
				t.Errorf("a code finding advises DELIFEQ on a Redis fleet: %s %s", f.Where(), f.Message)
			}
		}
		if code != report.ExitFindings {
			t.Errorf("exit %d, want 3", code)
		}
	})
	t.Run("-target wins, and the plan holds its fixes", func(t *testing.T) {
		servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
		n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
		r, _, _ := auditJSON(t, "-addr", n[0].Addr, "-target", "valkey-9.0")
		if tf := r.TargetFrom; tf == nil || tf.Source != report.TargetFromFlag || r.Target != "valkey-9.0" {
			t.Fatalf("target %q from %+v, want valkey-9.0 from the flag", r.Target, tf)
		}
		plan := report.PlanOf(r)
		var code *report.Step
		for i := range plan.Steps {
			if plan.Steps[i].Kind == report.PlanCode {
				code = &plan.Steps[i]
			}
		}
		if code == nil || len(code.Hold) == 0 || code.Hold[0].Command != rules.UseDELIFEQ || !strings.HasPrefix(code.Why, "Do not apply `lockaudit vet -fix` yet") {
			t.Fatalf("the code step does not hold the fixes onto DELIFEQ: %+v", code)
		}
		for _, v := range code.Verify {
			if strings.Contains(v, "vet -fix") {
				t.Errorf("the held code step still says to run %q", v)
			}
		}
	})
}

// TestPreflightInventoryDerivesTarget: an inventory declares its own
// target, as a probed fleet does.
func TestPreflightInventoryDerivesTarget(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(inv, []byte(inventoryYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _, _ := preflightJSON(t, "-inventory", inv)
	// 10.0.0.8 (8.0) is never promoted (priority 0 under Sentinel): the
	// lowest release that can become primary is the 8.1 replica's.
	if tf := r.TargetFrom; tf == nil || tf.Source != report.TargetFromFleet || strings.Join(tf.Releases, ",") != "valkey-8.1" || tf.Nodes[0].Addr != "10.0.0.7:6379" {
		t.Fatalf("target from %+v, want valkey-8.1 derived from 10.0.0.7:6379", r.TargetFrom)
	}
	if got := la112Commands(r); got["SET IFEQ"] != 0 || got["DELIFEQ"] != 6 {
		t.Errorf("LA112 by command %v", got)
	}
}

// TestPreflightInventoryCycle: replicas declared to replicate each other
// leave the primary unknown: the verdict is unknown (exit 4), as for a
// live fleet, never safe.
func TestPreflightInventoryCycle(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "cycle.yaml")
	os.WriteFile(inv, []byte(`topology: replication
nodes:
  - addr: 10.0.0.1:6379
    role: replica
    primary: 10.0.0.2:6379
    version: valkey-9.1.2
  - addr: 10.0.0.2:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-9.1.2
`), 0o644)
	// checkout is the example's clean package: nothing but the cycle can
	// decide the exit status.
	r, code, _ := preflightJSON(t, "-inventory", inv, "./checkout")
	if code != report.ExitUnknown {
		t.Errorf("exit %d, want 4", code)
	}
	if r.Verdict.Of(rules.NativeRelease).Safe != report.Unknown || !strings.Contains(strings.Join(r.Verdict.Strings(), "\n"), "replicate each other in a cycle") {
		t.Errorf("verdict:\n%s\nwant unknown for the cycle", strings.Join(r.Verdict.Strings(), "\n"))
	}
}

// TestProbeRedis86UnsyncedReplica: a Redis 7.0 replica under a Redis 8.6
// primary never syncs ("Can't handle RDB format version"): its broken
// link is an LA214 finding, and the verdict names it.
func TestProbeRedis86UnsyncedReplica(t *testing.T) {
	servertest.Require(t, servertest.Redis86, servertest.Redis70)
	p := servertest.Start(t, servertest.Config{Version: servertest.Redis86})
	old := servertest.Start(t, servertest.Config{Version: servertest.Redis70})
	old.Do(t, "REPLICAOF", "127.0.0.1", strconv.Itoa(p.Port))
	// Wait until the primary has tried to feed it (the replica's own log
	// says it cannot load the snapshot).
	deadline := time.Now().Add(servertest.SettleTimeout)
	for !strings.Contains(old.LogTail(50), "Can't handle RDB format version") {
		if time.Now().After(deadline) {
			t.Fatalf("the 7.0 replica never failed to load the 8.6 snapshot:\n%s", old.LogTail(20))
		}
		time.Sleep(100 * time.Millisecond)
	}
	r, code := probeJSON(t, p.Addr)
	var la214 string
	for _, f := range r.Findings {
		if f.Rule == "LA214" && f.Node == old.Addr {
			la214 = f.Message
		}
	}
	if !strings.Contains(la214, "is not in sync with its primary "+p.Addr) || !strings.Contains(la214, "older than its primary's Redis 8.6.3") {
		t.Errorf("LA214 on the 7.0 replica: %q", la214)
	}
	reasons := strings.Join(r.Verdict.Strings(), "\n")
	if !strings.Contains(reasons, "replica "+old.Addr+" (Redis 7.0.15) is not in sync with its primary (INFO replication: master_link_status:down") {
		t.Errorf("the verdict does not name the unsynced replica:\n%s", reasons)
	}
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3 (LA214 is an error)", code)
	}
}

// probeJSON probes a seed and decodes the JSON report.
func probeJSON(t *testing.T, args ...string) (*report.Run, int) {
	t.Helper()
	stdout, stderr, code := runIn(t, t.TempDir(), nil, append([]string{"probe", "-format", "json"}, args...)...)
	r, err := report.DecodeRun([]byte(stdout))
	if err != nil {
		t.Fatalf("probe JSON (exit %d): %v\n%s", code, err, stderr)
	}
	return r, code
}

// TestDiffScanAndConform: diff compares scan runs and conform runs
// finding by finding: a new permanent lock (LA211) is new (exit 3), and so
// is a new conformance failure (LA213).
func TestDiffScanAndConform(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	dir := t.TempDir()
	save := func(name string, args ...string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if _, stderr, code := runIn(t, dir, nil, append(append([]string{}, args...), "-o", path)...); code == report.ExitFailed || code == report.ExitUsage {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		return path
	}
	s.Do(t, "SET", "lock:old", "t")
	before := save("scan-before.json", "scan", s.Addr)
	s.Do(t, "SET", "lock:new", "t")
	after := save("scan-after.json", "scan", s.Addr)
	stdout, stderr, code := runIn(t, dir, nil, "diff", before, after)
	if code != report.ExitFindings || !strings.Contains(stderr, "0 fixed, 1 new, 1 unchanged") || !strings.Contains(stdout, `new        LA211`) || !strings.Contains(stdout, `"lock:new"`) {
		t.Errorf("scan pair: exit %d\n%s%s\nwant exit 3, the new LA211 new and the old one unchanged", code, stdout, stderr)
	}
	s.Do(t, "DEL", "lock:old", "lock:new")

	before = save("conform-before.json", "conform", "-write-scratch-key", "-uses", "delifeq", s.Addr)
	after = save("conform-after.json", "conform", "-write-scratch-key", "-uses", "delifeq,delex", s.Addr) // 9.1 has no DELEX
	stdout, stderr, code = runIn(t, dir, nil, "diff", before, after)
	if code != report.ExitFindings || !strings.Contains(stdout, "new        LA213") || !strings.Contains(stdout, `lacks the step "DELEX release`) {
		t.Errorf("conform pair: exit %d\n%s%s\nwant exit 3 and the new LA213", code, stdout, stderr)
	}
	// Across kinds, nothing is compared that one of them did not look at.
	stdout, _, code = runIn(t, dir, nil, "diff", before, filepath.Join(dir, "scan-after.json"))
	if code != 0 || !strings.Contains(stdout, "not compared: scan findings: only the new run scanned for lock keys") || !strings.Contains(stdout, "not compared: conformance findings: only the old run ran the lock steps") {
		t.Errorf("conform vs scan: exit %d\n%s", code, stdout)
	}
}
