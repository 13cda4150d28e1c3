package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
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
	os.WriteFile(cfg, []byte("report:\n  title: From the file\n  client: File Client\n  author: File Author\n  notes: notes/n.md\n  reviewer: R. Viewer\n  version: \"1.0\"\n  assign:\n    - {match: LA107, owner: payments, effort: 1h}\n    - {match: inventory/, owner: stock team}\n"), 0o644)
	out := filepath.Join(t.TempDir(), "run.json")
	_, stderr, code := runIn(t, t.TempDir(), nil, "preflight", "-C", exampleDir(t), "-config", cfg, "-target", "valkey-9.1", "-client", "Flag Client", "-system", "shop", "-o", out)
	if code != report.ExitFindings {
		t.Fatalf("preflight: exit %d\n%s", code, stderr)
	}
	r := readJSONRun(t, out)
	want := report.Engagement{Title: "From the file", Client: "Flag Client", System: "shop", Author: "File Author", Notes: "From the **config**.\n",
		Reviewer: "R. Viewer", Version: "1.0", Assign: []report.Assignment{{Match: "LA107", Owner: "payments", Effort: "1h"}, {Match: "inventory/", Owner: "stock team"}}}
	if r.Engagement == nil || !reflect.DeepEqual(*r.Engagement, want) {
		t.Errorf("engagement %+v, want %+v", r.Engagement, want)
	}
	// The JSON form shows each finding's owner and effort, the most
	// precise assignment first: the rule's over the folder's.
	var raw report.Run // as written: DecodeRun drops what is derived
	if err := json.Unmarshal(mustRead(t, out), &raw); err != nil {
		t.Fatal(err)
	}
	owners := map[string]string{}
	for _, f := range raw.Findings {
		if f.Pos != nil && f.Pos.File == "inventory/inventory.go" {
			owners[string(f.Rule)] = f.Owner + "/" + f.Effort
		}
	}
	if owners["LA107"] != "payments/1h" || owners["LA103"] != "stock team/" {
		t.Errorf("owners of inventory's findings: %v", owners)
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

// TestConfigNotesStayInTheConfigFolder: the audited repository's config
// file cannot choose a file outside its own folder as the report's notes —
// not /proc/self/environ (which holds LOCKAUDIT_PASSWORD and every CI
// token), not ../ paths, not a symbolic link that leads out — and the
// password never reaches a report, in any format, even from notes inside
// the folder that quote it. Run as a real process, so /proc/self/environ
// is the real environment with the password in it.
func TestConfigNotesStayInTheConfigFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit and loads the example's packages")
	}
	const password = "hunter2-notes-secret"
	bin := lockauditBinary(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "loot.md"), []byte("LOCKAUDIT_PASSWORD="+password+"\n"), 0o644)
	repo := filepath.Join(t.TempDir(), "a", "b", "repo")
	if err := os.MkdirAll(filepath.Join(repo, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(repo, filepath.Join(outside, "loot.md"))
	os.Symlink(filepath.Join(outside, "loot.md"), filepath.Join(repo, "docs", "link.md"))
	os.Symlink("/proc/self/environ", filepath.Join(repo, "environ.md"))
	os.Symlink("../..", filepath.Join(repo, "docs", "up"))
	if err := syscall.Mkfifo(filepath.Join(repo, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(repo, "docs", "notes.md"), []byte("The probe user's password is "+password+"; it was rotated.\n"), 0o644)
	os.Symlink("notes.md", filepath.Join(repo, "docs", "inside.md"))

	run := func(notes string, args ...string) (string, int) {
		t.Helper()
		cfg := filepath.Join(repo, ".lockaudit.yaml")
		os.WriteFile(cfg, []byte("report:\n  notes: '"+notes+"'\n"), 0o644)
		cmd := exec.Command(bin, append([]string{"preflight", "-C", exampleDir(t), "-config", cfg, "-target", "valkey-9.1"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "LOCKAUDIT_PASSWORD="+password)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), password) {
			t.Errorf("notes %q: the password is in the output:\n%s", notes, out)
		}
		return string(out), code
	}
	for _, tc := range []struct{ notes, want string }{
		{"/proc/self/environ", "is an absolute path"},
		{filepath.Join(outside, "loot.md"), "is an absolute path"},
		{rel, "leads out of the config file's folder"},
		{"docs/../../loot.md", "leads out of the config file's folder"},
		{"docs/link.md", "leads out of the config file's folder"},
		{"environ.md", "leads out of the config file's folder"},
		{"docs/up/b/x.md", "leads out of the config file's folder"},
		{"fifo.md", "is not a regular file"},
		{"docs", "is not a regular file"},
	} {
		out := filepath.Join(t.TempDir(), "run.json")
		stderr, code := run(tc.notes, "-o", out)
		if code != report.ExitUsage || !strings.Contains(stderr, "report.notes: ") || !strings.Contains(stderr, tc.want) {
			t.Errorf("notes %q: exit %d, %q; want exit 2 and %q", tc.notes, code, stderr, tc.want)
		}
		if data, err := os.ReadFile(out); err == nil {
			t.Errorf("notes %q: a report was written", tc.notes)
			if strings.Contains(string(data), password) {
				t.Errorf("notes %q: the report holds the password", tc.notes)
			}
		}
	}

	// Notes inside the folder (a link that stays inside too) are read;
	// the password they quote is redacted in every report.
	dir := t.TempDir()
	var outs []string
	for _, ext := range []string{"json", "sarif", "md", "html", "txt"} {
		outs = append(outs, "-o", filepath.Join(dir, "report."+ext))
	}
	if stderr, code := run("docs/inside.md", outs...); code != report.ExitFindings {
		t.Fatalf("notes inside the folder: exit %d\n%s", code, stderr)
	}
	for i := 1; i < len(outs); i += 2 {
		data, err := os.ReadFile(outs[i])
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), password) {
			t.Errorf("%s holds the password", filepath.Base(outs[i]))
		}
		shown := strings.ReplaceAll(string(data), `\[redacted\]`, "[redacted]") // Markdown escapes brackets
		if ext := filepath.Ext(outs[i]); ext != ".sarif" && ext != ".txt" && !strings.Contains(shown, "password is [redacted]; it was rotated") {
			t.Errorf("%s does not show the notes, redacted", filepath.Base(outs[i]))
		}
	}

	// A saved run that holds the password (written elsewhere, or edited):
	// render and diff redact it too.
	data, _ := os.ReadFile(outs[1])
	var doc map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(data), "[redacted]", password)), &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range doc["findings"].([]any) {
		f := f.(map[string]any)
		f["message"] = f["message"].(string) + " (auth " + password + ")"
	}
	data, _ = json.Marshal(doc)
	saved := filepath.Join(dir, "saved.json")
	os.WriteFile(saved, data, 0o644)
	envv := map[string]string{"LOCKAUDIT_PASSWORD": password}
	for _, args := range [][]string{
		{"render", "-format", "json", saved}, {"render", "-format", "html", saved}, {"render", "-format", "markdown", saved}, {"render", "-format", "text", saved},
		{"diff", "-format", "json", outs[1], saved}, {"diff", "-format", "html", outs[1], saved}, {"diff", "-format", "sarif", outs[1], saved}, {"diff", "-format", "text", outs[1], saved},
	} {
		stdout, stderr, _ := runIn(t, dir, envv, args...)
		if strings.Contains(stdout+stderr, password) {
			t.Errorf("%v: the password is not redacted:\n%.2000s\n%s", args, stdout, stderr)
		}
		if !strings.Contains(stdout, "redacted") {
			t.Errorf("%v: the texts with the password are not shown, redacted:\n%.2000s", args, stdout)
		}
	}
}
