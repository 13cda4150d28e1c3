package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
)

// The engagement comes from the config file's report: section, each flag
// wins over its key, and the config's notes file is read relative to the
// config file; all of it lands in the JSON run.
func TestEngagementFromConfigAndFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example's packages")
	}
	cfgDir := t.TempDir()
	if err := os.Mkdir(filepath.Join(cfgDir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(cfgDir, "notes", "n.md"), []byte("From the **config**.\n"), 0o644)
	cfg := filepath.Join(cfgDir, "lockaudit.yaml")
	os.WriteFile(cfg, []byte("report:\n  title: From the file\n  client: File Client\n  author: File Author\n  notes: notes/n.md\n"), 0o644)
	out := filepath.Join(t.TempDir(), "run.json")
	_, stderr, code := runIn(t, t.TempDir(), nil, "preflight", "-C", exampleDir(t), "-config", cfg, "-target", "valkey-9.1", "-client", "Flag Client", "-system", "shop", "-o", out)
	if code != report.ExitFindings {
		t.Fatalf("preflight: exit %d\n%s", code, stderr)
	}
	r := readJSONRun(t, out)
	want := report.Engagement{Title: "From the file", Client: "Flag Client", System: "shop", Author: "File Author", Notes: "From the **config**.\n"}
	if r.Engagement == nil || *r.Engagement != want {
		t.Errorf("engagement %+v, want %+v", r.Engagement, want)
	}
	if r.Source == nil || r.Source.Module != "example.com/orders" {
		t.Errorf("source %+v", r.Source)
	}
	if r.Probed != nil {
		t.Errorf("preflight probes nothing, but the run has a probe window %+v", r.Probed)
	}
}

// A notes file or an earlier run that cannot be read is a usage error,
// found before the analysis, naming the flag.
func TestEngagementUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"schema_version": 2, "command": "bogus"}`), 0o644)
	latin1 := filepath.Join(dir, "latin1.md")
	os.WriteFile(latin1, []byte("caf\xe9\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-notes", filepath.Join(dir, "missing.md")}, "-notes: "},
		{[]string{"-notes", latin1}, "is not UTF-8 text"},
		{[]string{"-notes", dir}, "is not a regular file"},
		{[]string{"-since", filepath.Join(dir, "missing.json")}, "-since: "},
		{[]string{"-since", bad}, "-since: " + bad + ": "},
	} {
		args := append([]string{"preflight", "-C", exampleDir(t), "-target", "valkey-9.1"}, tc.args...)
		_, stderr, code := runIn(t, dir, nil, args...)
		if code != report.ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// diff: two runs, readable ones.
	if _, stderr, code := runIn(t, dir, nil, "diff", bad); code != report.ExitUsage || !strings.Contains(stderr, "want two runs") {
		t.Errorf("diff with one run: exit %d %s", code, stderr)
	}
	if _, stderr, code := runIn(t, dir, nil, "diff", bad, bad); code != report.ExitFailed || !strings.Contains(stderr, "command") {
		t.Errorf("diff of a run render refuses: exit %d %s", code, stderr)
	}
}
