package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// preflightJSON runs preflight on the bundled example and decodes its JSON.
func preflightJSON(t *testing.T, args ...string) (*report.Run, int, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run.json")
	_, stderr, code := runIn(t, t.TempDir(), nil, append([]string{"preflight", "-C", exampleDir(t), "-o", out}, args...)...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no report (exit %d): %v\n%s", code, err, stderr)
	}
	r, err := report.DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	return r, code, stderr
}

// TestPreflightTargets: one declared primary per -target; on valkey-9.0
// the example's native paths are safe; adding valkey-8.1 ("some nodes stay
// on 8.1") makes the release unsafe and says what to upgrade first, and
// LA112 reports every DELIFEQ line.
func TestPreflightTargets(t *testing.T) {
	r, code, _ := preflightJSON(t, "-target", "valkey-9.0")
	if r.Command != "preflight" || r.Topology != "declared" || r.Target != "valkey-9.0" || len(r.Nodes) != 1 || !r.Nodes[0].Declared || r.Time == "" {
		t.Errorf("command %q, topology %q, target %q, nodes %+v", r.Command, r.Topology, r.Target, r.Nodes)
	}
	if tf := r.TargetFrom; tf == nil || tf.Source != report.TargetFromFlag || strings.Join(tf.Releases, ",") != "valkey-9.0" {
		t.Errorf("target_from %+v, want valkey-9.0 from the flag", tf)
	}
	if v := r.Verdict; v.Of(rules.NativeRelease).Word() != report.Safe || v.Of(rules.NativeExtend).Word() != report.Safe || v.Of(rules.LuaScripts).Word() != report.Available {
		t.Errorf("valkey-9.0: verdict %s/%s/%s, want safe/safe/available:\n%s", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word(), strings.Join(v.Strings(), "\n"))
	}
	exampleCodeFindings(t, r)
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3 (code findings)", code)
	}

	r, _, _ = preflightJSON(t, "-target", "valkey-9.0,valkey-8.1")
	if r.Verdict.Of(rules.NativeRelease).Word() != report.Unsafe || r.Verdict.Of(rules.NativeExtend).Word() != report.Safe {
		t.Errorf("valkey-9.0,valkey-8.1: release %s, extend %s; want unsafe, safe", r.Verdict.Of(rules.NativeRelease).Word(), r.Verdict.Of(rules.NativeExtend).Word())
	}
	want := "native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) but every valkey-8.1 node (declared by -target, promotable) has no DELIFEQ (declared valkey-8.1.0); upgrade every valkey-8.1 node that can become primary from valkey-8.1 to Valkey 9.0+ before releasing with DELIFEQ"
	if reasonsWith(r, want) == "" {
		t.Errorf("reasons lack\n  %s\ngot\n  %s", want, strings.Join(r.Verdict.Strings(), "\n  "))
	}
	la112 := 0
	for _, f := range r.Findings {
		if f.Rule == "LA112" {
			la112++
		}
	}
	if la112 != 6 {
		t.Errorf("%d LA112 findings with valkey-8.1 among the targets, want 6 (every DELIFEQ)", la112)
	}
}

const inventoryYAML = `topology: sentinel
nodes:
  - addr: 10.0.0.1:6379
    role: primary
    version: valkey-9.1.2
  - addr: 10.0.0.7:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-8.1.1
  - addr: 10.0.0.8:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-8.0.1
    replica_priority: 0
  - addr: 10.0.0.9:6379
    role: replica
    primary: 10.0.0.1:6379
    version: valkey-9.1.2
    lua: false
`

// TestPreflightInventory: the declared fleet is judged like a probed one:
// the promotable 8.1 replica breaks the release (with the advice the README
// promises), the 8.0 replica at replica-priority 0 breaks nothing under
// Sentinel, and a node declared without Lua breaks the Lua release.
func TestPreflightInventory(t *testing.T) {
	inv := filepath.Join(t.TempDir(), "fleet.yaml")
	if err := os.WriteFile(inv, []byte(inventoryYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	r, code, _ := preflightJSON(t, "-inventory", inv)
	if r.Topology != "declared" || len(r.Nodes) != 4 {
		t.Fatalf("topology %q, %d nodes", r.Topology, len(r.Nodes))
	}
	v := r.Verdict
	if v.Of(rules.NativeRelease).Word() != report.Unsafe || v.Of(rules.NativeExtend).Word() != report.Safe || v.Of(rules.LuaScripts).Word() != report.Missing {
		t.Errorf("verdict %s/%s/%s, want unsafe/safe/missing", v.Of(rules.NativeRelease).Word(), v.Of(rules.NativeExtend).Word(), v.Of(rules.LuaScripts).Word())
	}
	for _, want := range []string{
		"native_release: unsafe — the code releases with DELIFEQ (billing/billing.go:56, billing/billing.go:83 and 4 more) but replica 10.0.0.7:6379 (Valkey 8.1.1, promotable) has no DELIFEQ (declared valkey-8.1.1); upgrade 10.0.0.7:6379 from valkey-8.1.1 to Valkey 9.0+ before releasing with DELIFEQ, or set its replica-priority 0 (Sentinel then never promotes it)",
		"lua: missing — the code runs Lua (billing/billing.go:33: Lua compare-and-delete script (billing.go:13), reports/reports.go:27: redsync Mutex.UnlockContext (Lua release) and 2 more) but replica 10.0.0.9:6379 (Valkey 9.1.2, promotable) cannot run Lua (declared lua: false in fleet.yaml)",
	} {
		if reasonsWith(r, want) == "" {
			t.Errorf("reasons lack\n  %s\ngot\n  %s", want, strings.Join(v.Strings(), "\n  "))
		}
	}
	if s := strings.Join(v.Strings(), "\n"); strings.Contains(s, "10.0.0.8:6379") {
		t.Errorf("the replica-priority 0 node breaks nothing under Sentinel, but a reason names it:\n%s", s)
	}
	var nodeRules []string
	for _, f := range r.Findings {
		if f.Node != "" {
			nodeRules = append(nodeRules, f.Node+" "+string(f.Rule))
		}
	}
	if got := strings.Join(nodeRules, ", "); got != "10.0.0.7:6379 LA201, 10.0.0.9:6379 LA203" {
		t.Errorf("node findings %s, want 10.0.0.7:6379 LA201, 10.0.0.9:6379 LA203", got)
	}
	for _, n := range r.Nodes {
		if n.Addr == "10.0.0.8:6379" && n.Promotable != report.PromotableNo {
			t.Errorf("10.0.0.8:6379 promotable %q, want no (replica_priority 0 under Sentinel)", n.Promotable)
		}
	}
	if code != report.ExitFindings {
		t.Errorf("exit %d, want 3", code)
	}
}

// TestPreflightConfigTarget: without -target and -inventory, the config
// file's target: is the fleet.
func TestPreflightConfigTarget(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "cfg.yaml")
	if err := os.WriteFile(cfg, []byte("target: [valkey-8.0]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _, _ := preflightJSON(t, "-config", cfg)
	if len(r.Nodes) != 1 || r.Nodes[0].Addr != "target valkey-8.0" || r.Verdict.Of(rules.NativeExtend).Word() != report.Unsafe || r.Verdict.Of(rules.NativeRelease).Word() != report.Unsafe {
		t.Errorf("nodes %+v verdict %+v", r.Nodes, r.Verdict)
	}
}

// TestPreflightBadInput: a malformed inventory names the file, line and
// key (exit 2, like a bad config file); so do a missing fleet and a bad
// target.
func TestPreflightBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "fleet.yaml")
	os.WriteFile(bad, []byte("topology: sentinel\nnodes:\n  - addr: 10.0.0.1:6379\n    role: primary\n    version: valkey-9.1.2\n  - addr: 10.0.0.7\n    role: replica\n    version: valkey-8.1.1\n"), 0o644)
	unknownKey := filepath.Join(dir, "typo.yaml")
	os.WriteFile(unknownKey, []byte("nodes:\n  - addr: 10.0.0.1:6379\n    role: primary\n    verison: valkey-9.1.2\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-inventory", bad}, bad + ":6: nodes[1].addr: \"10.0.0.7\" is not HOST:PORT"},
		{[]string{"-inventory", unknownKey}, unknownKey + ":4"},
		{[]string{"-inventory", filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{nil, "no fleet to check: give -target"},
		{[]string{"-target", "valkey-1.0"}, "-target"},
		{[]string{"-target", "valkey-9.0", "-o", "r.pdf"}, "cannot tell the format"},
	} {
		stdout, stderr, code := runIn(t, dir, nil, append([]string{"preflight", "-C", exampleDir(t)}, tt.args...)...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) || stdout != "" {
			t.Errorf("preflight %q: exit %d, stderr %q, stdout %q; want exit 2 and %q", tt.args, code, stderr, stdout, tt.want)
		}
	}
}

// TestPreflightRenderRoundTrip: a preflight run re-rendered from its JSON
// gives the same bytes in every format.
func TestPreflightRenderRoundTrip(t *testing.T) {
	dir := t.TempDir()
	inv := filepath.Join(dir, "fleet.yaml")
	os.WriteFile(inv, []byte(inventoryYAML), 0o644)
	names := []string{"run.json", "r.html", "r.md", "r.sarif", "r.txt"}
	args := []string{"preflight", "-C", exampleDir(t), "-inventory", inv}
	for _, n := range names {
		args = append(args, "-o", filepath.Join(dir, n))
	}
	if _, stderr, code := runIn(t, dir, nil, args...); code != report.ExitFindings {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, n := range names {
		orig, _ := os.ReadFile(filepath.Join(dir, n))
		again := filepath.Join(t.TempDir(), n)
		runIn(t, dir, nil, "render", "-o", again, filepath.Join(dir, "run.json"))
		re, _ := os.ReadFile(again)
		if len(orig) == 0 || string(orig) != string(re) {
			t.Errorf("%s: render of run.json differs (%d vs %d bytes)", n, len(orig), len(re))
		}
	}
}
