package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
	if pw, err := c.password(context.Background(), e, dir); err != nil || pw != "file-secret-pw" {
		t.Fatalf("password: %q, %v", pw, err)
	}
	if got := e.redactor()("auth file-secret-pw, env-secret-pw"); got != "auth [redacted], [redacted]" {
		t.Errorf("redactor: %q", got)
	}
}

// TestPasswordFileRefusals: -password-file reads regular files only (a
// link to one, as secret mounts are, is followed) and never sends an
// empty password: a named pipe, a folder, an empty file and a file whose
// first line is empty are usage errors (exit 2) before any node is dialled
// (127.0.0.1:1 would give exit 1).
func TestPasswordFileRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o600)
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(write("real", "hunter2-secret\n"), link)
	for _, tc := range []struct {
		path, want string
		code       int
	}{
		{fifo, fifo + " is a named pipe (FIFO), not a regular file", report.ExitUsage},
		{dir, dir + " is a folder, not a regular file", report.ExitUsage},
		{write("empty", ""), "the first line is empty: no password to send", report.ExitUsage},
		{write("newline", "\nhunter2-secret\n"), "the first line is empty", report.ExitUsage},
		{link, "could not be probed", report.ExitFailed},
	} {
		for _, cmd := range [][]string{{"probe", "-timeout", "1s"}, {"scan", "-timeout", "1s"}} {
			_, stderr, code := runIn(t, dir, nil, append(cmd, "-password-file", tc.path, "127.0.0.1:1")...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "hunter2-secret") {
				t.Errorf("%s -password-file %s: exit %d, %s; want %d and %q", cmd[0], tc.path, code, stderr, tc.code, tc.want)
			}
		}
	}
}

// TestPasswordFileFIFONoWriter: the real binary given a FIFO nobody
// writes to exits at once with a usage error; it used to block in the
// read for ever, deaf to SIGTERM. The wait below only bounds a failure:
// past it the test sends SIGTERM, then SIGKILL.
func TestPasswordFileFIFONoWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pw")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lockauditBinary(t), "probe", "-password-file", fifo, "127.0.0.1:1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
			t.Fatalf("still reading the FIFO after 60s; SIGTERM ended it: %s", stderr.String())
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("still reading the FIFO after 60s, and SIGTERM did not end it")
		}
	}
	if code := cmd.ProcessState.ExitCode(); code != report.ExitUsage || !strings.Contains(stderr.String(), "is a named pipe (FIFO), not a regular file") {
		t.Errorf("exit %d, %s; want 2 and the FIFO named", code, stderr.String())
	}
}
