package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
)

// credentialForms are the ways a password gets into an address.
var credentialForms = []string{
	"probe:hunter2-secret@127.0.0.1:6379",
	"hunter2-secret@127.0.0.1:6379",
	"redis://:hunter2-secret@127.0.0.1:6379",
	"rediss://probe:hunter2-secret@127.0.0.1:6380",
	"valkey://hunter2-secret@127.0.0.1:6379",
}

// TestCredentialsRefusedEverywhere: an address with credentials in it is
// refused with exit 2 wherever it is given — a probe argument, -addr,
// -sentinel (probe and audit), audit's package patterns, the config file's
// probe.addrs and probe.sentinel, an inventory — before anything is
// dialled or written, and the password appears nowhere: not on stdout, not
// on stderr, not in a report.
func TestCredentialsRefusedEverywhere(t *testing.T) {
	ex := exampleDir(t)
	for _, form := range credentialForms {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "cfg.yaml")
		os.WriteFile(cfg, []byte("probe:\n  addrs: ['"+form+"']\n"), 0o644)
		sentinelCfg := filepath.Join(dir, "sentinel.yaml")
		os.WriteFile(sentinelCfg, []byte("probe:\n  sentinel:\n    - 127.0.0.1:26379\n    - '"+form+"'\n"), 0o644)
		inv := filepath.Join(dir, "fleet.yaml")
		os.WriteFile(inv, []byte("nodes:\n  - addr: '"+form+"'\n    role: primary\n    version: valkey-9.1\n"), 0o644)
		out := filepath.Join(dir, "report.json")
		for _, args := range [][]string{
			{"probe", "-o", out, form},
			{"probe", "-o", out, "-addr", form},
			{"probe", "-o", out, "-sentinel", form, "-master", "m"},
			{"probe", "-o", out, "-sentinel", "127.0.0.1:26379," + form},
			{"probe", "-o", out, "-config", cfg},
			{"probe", "-o", out, "-config", sentinelCfg},
			{"audit", "-C", ex, "-o", out, "-addr", form},
			{"audit", "-C", ex, "-o", out, "-sentinel", form},
			{"audit", "-C", ex, "-o", out, "-addr", "127.0.0.1:6379", form},
			{"audit", "-C", ex, "-o", out, "-config", cfg},
			{"preflight", "-C", ex, "-o", out, "-inventory", inv},
			{"preflight", "-C", ex, "-o", out, "-target", "valkey-9.0", form},
			{"vet", "-C", ex, "-o", out, form},
		} {
			stdout, stderr, code := runIn(t, dir, nil, args...)
			if code != report.ExitUsage || !strings.Contains(stderr, "not shown") {
				t.Errorf("%q: exit %d, stderr %q; want 2 and a refusal", args, code, stderr)
			}
			if strings.Contains(stdout+stderr, "hunter2-secret") {
				t.Errorf("%q echoed the password:\n%s%s", args, stdout, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%q wrote a report", args)
			}
		}
	}
}

// TestPasswordFileRedactsReports: a password read from a password file is
// redacted from every report the command writes, as LOCKAUDIT_PASSWORD's.
func TestPasswordFileRedactsReports(t *testing.T) {
	dir := t.TempDir()
	pwf := filepath.Join(dir, "pw")
	os.WriteFile(pwf, []byte("file-secret-pw\nignored\n"), 0o600)
	e := &env{Getenv: func(k string) string { return map[string]string{"LOCKAUDIT_PASSWORD": "env-secret-pw"}[k] }}
	c := &connFlags{passwordFile: "pw"}
	if pw, err := c.password(e, dir); err != nil || pw != "file-secret-pw" {
		t.Fatalf("password: %q, %v", pw, err)
	}
	if got := e.redactor()("auth file-secret-pw, env-secret-pw"); got != "auth [redacted], [redacted]" {
		t.Errorf("redactor: %q", got)
	}
}
