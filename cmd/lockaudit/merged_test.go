package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

// TestAuditMergesScanAndConform is issue 23's merged report: scan and
// conform run against real servers (a Valkey 9.1 primary with a lock key
// left without a TTL, and a Valkey 8.1 replica that lacks DELIFEQ), their
// JSON runs merged into the example's audit (audit -scan -conform): one
// engagement report with the code's findings, the scan's coverage and
// LA211, conform's table and LA213.
func TestAuditMergesScanAndConform(t *testing.T) {
	servertest.Require(t, servertest.Valkey91, servertest.Valkey81)
	dir := gitExample(t)
	rev := gitIn(t, dir, "rev-parse", "HEAD")
	servers := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Config: servertest.Config{Version: servertest.Valkey81}, Of: 0})
	servers[0].Do(t, "SET", "lock:stuck", "some-token")
	servertest.WaitOffsets(t, servers[0], servers[1])
	seed, out := servers[0].Addr, t.TempDir()
	for _, args := range [][]string{
		{"scan", "-o", filepath.Join(out, "scan.json"), seed},
		{"conform", "-write-scratch-key", "-o", filepath.Join(out, "conform.json"), seed},
	} {
		if _, stderr, code := runIn(t, out, nil, args...); code != report.ExitFindings {
			t.Fatalf("%s: exit %d, want 3\n%s", args[0], code, stderr)
		}
	}
	if code := auditReport(t, dir, seed, out, "-scan", filepath.Join(out, "scan.json"), "-conform", filepath.Join(out, "conform.json")); code != report.ExitFindings {
		t.Fatalf("audit: exit %d, want 3", code)
	}
	data := mustRead(t, filepath.Join(out, "run.json"))
	s := scratchRE.ReplaceAllString(string(data), "lockaudit:conform:{0123456789abcdef}")
	s = pttlRE.ReplaceAllString(s, "PTTL 30000")
	s = idleRE.ReplaceAllString(s, "idle 0s")
	stable := stabilize(t, []byte(s), addrsOf(servers), map[string]string{rev: "1111111111111111111111111111111111111111"}, firstAudit)
	rules := map[string]bool{}
	for _, f := range stable.Active() {
		rules[string(f.Rule)] = true
	}
	for _, want := range []string{"LA107", "LA201", "LA211", "LA213"} { // code, probe, scan, conform
		if !rules[want] {
			t.Errorf("the merged run lacks %s: %v", want, rules)
		}
	}
	if stable.Scan == nil || len(stable.Conform) != 2 {
		t.Errorf("the merged run lacks the scan's coverage or conform's table (%d nodes)", len(stable.Conform))
	}
	for format, ext := range map[string]string{"markdown": "md", "html": "html"} {
		got := renderRun(t, stable, format)
		for _, w := range []string{"Scan coverage", "Conformance by node", "Findings on the servers", "ACME Corp", `lock:stuck`, "if promoted: release (DELIFEQ)"} {
			if !bytes.Contains(got, []byte(w)) {
				t.Errorf("%s merged report lacks %q", format, w)
			}
		}
		golden.Check(t, filepath.Join("testdata", "report", "merged."+ext), got)
	}
	// A run of another command is refused, naming the flag.
	_, stderr, code := runIn(t, out, nil, "audit", "-C", dir, "-addr", seed, "-scan", filepath.Join(out, "conform.json"), "-o", filepath.Join(out, "x.json"))
	if code != report.ExitUsage || !strings.Contains(stderr, "-scan:") || !strings.Contains(stderr, "is a conform run") {
		t.Errorf("audit -scan CONFORM.json: exit %d\n%s", code, stderr)
	}
}
