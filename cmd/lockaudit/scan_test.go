package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
)

func TestScanCLIUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"scan"}, "no address to probe"},
		{[]string{"scan", "-rate", "-1", "127.0.0.1:6379"}, "-rate must be 0"},
		{[]string{"scan", "-count", "0", "127.0.0.1:6379"}, "-count must be at least 1"},
		{[]string{"scan", "-max-lease", "-5s", "127.0.0.1:6379"}, "-max-lease must be positive"},
		{[]string{"scan", "-limit", "10001", "127.0.0.1:6379"}, "-limit must be between 1 and 10000"},
		{[]string{"scan", "-password", "hunter2-secret", "127.0.0.1:6379"}, "LOCKAUDIT_PASSWORD"},
		{[]string{"scan", "-format", "pdf", "127.0.0.1:6379"}, `unknown -format "pdf"`},
		{[]string{"scan", "127.0.0.1:x"}, `"127.0.0.1:x" is not HOST:PORT`}, // a host alone means port 6379
	} {
		stdout, stderr, code := runIn(t, t.TempDir(), nil, tt.args...)
		if code != report.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
		if strings.Contains(stdout+stderr, "hunter2-secret") {
			t.Errorf("%q echoed the password", tt.args)
		}
	}
}

func TestScanCLI(t *testing.T) {
	s := servertest.Start(t, servertest.Config{})
	s.Do(t, "SET", "lock:stuck", "some-token")
	s.Do(t, "SET", "lock:ok", "t", "PX", "60000")
	s.Do(t, "SET", "mutex:long", "t", "EX", "7200")
	s.Do(t, "SET", "cache:1", "v")

	stdout, stderr, code := runIn(t, t.TempDir(), nil, "scan", s.Addr)
	if code != report.ExitFindings || !strings.Contains(stdout, `LA211 error   `+s.Addr+`  lock key "lock:stuck" has no TTL`) {
		t.Errorf("exit %d, want 3 and the LA211 line:\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "mutex:long") || strings.Contains(stdout, "some-token") {
		t.Errorf("reported a key outside the patterns or a value:\n%s", stdout)
	}
	// -exit-zero: the same report, exit 0 (a CI job that only uploads it).
	if outZ, _, codeZ := runIn(t, t.TempDir(), nil, "scan", "-exit-zero", s.Addr); codeZ != 0 || outZ != stdout {
		t.Errorf("scan -exit-zero: exit %d, and the report must not change:\n%s", codeZ, outZ)
	}

	// The config's lock_keys and scan.max_lease apply; JSON carries the coverage.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".lockaudit.yaml"), []byte("lock_keys: ['^mutex:', '^lock:']\nscan:\n  max_lease: 1h\n"), 0o644)
	stdout, _, code = runIn(t, dir, nil, "scan", "-format", "json", s.Addr)
	var r report.Run
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("JSON: %v\n%s", err, stdout)
	}
	rulesFound := map[string]int{}
	for _, f := range r.Findings {
		rulesFound[string(f.Rule)]++
	}
	if code != report.ExitFindings || rulesFound["LA211"] != 1 || rulesFound["LA212"] != 1 || r.Scan == nil ||
		r.Scan.MaxLease != "1h0m0s" || len(r.Scan.Shards) != 1 || !r.Scan.Shards[0].Complete || r.Scan.Shards[0].Keys != 4 {
		t.Errorf("exit %d, findings %v, scan %+v", code, rulesFound, r.Scan)
	}

	// Nothing wrong: exit 0.
	s.Do(t, "DEL", "lock:stuck")
	if stdout, stderr, code := runIn(t, t.TempDir(), nil, "scan", s.Addr); code != 0 || !strings.Contains(stdout, "Exit status 0") {
		t.Errorf("clean: exit %d\n%s%s", code, stdout, stderr)
	}
}
