package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoVetToolConfigAndDirectives: in go vet -vettool mode the package's
// .lockaudit.yaml applies (flags win), //lockaudit directives suppress
// inside the analyzers, malformed ones are LA100, and editing the config
// re-runs the analysis despite go vet's cache.
func TestGoVetToolConfigAndDirectives(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lockaudit and runs go vet")
	}
	bin := lockauditBinary(t)
	mod := redigoModule(t, map[string]string{
		"svc/svc.go":      directiveSrc,
		"svc/other.go":    fileIgnoreSrc,
		".lockaudit.yaml": "target: valkey-8.1\nrules:\n  LA112: off\n",
	})
	vet := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", append(append([]string{"vet", "-vettool=" + bin}, args...), "./...")...)
		cmd.Dir = mod
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run() // exit 1 on findings
		var lines []string
		for _, x := range parseFindings(t, out.String(), "svc/") {
			lines = append(lines, x.String())
		}
		if strings.Contains(out.String(), "lockaudit:") {
			t.Errorf("go vet output has a tool error:\n%s", out.String())
		}
		return strings.Join(lines, "\n")
	}
	// Suppressed lines 7 and 10 (LA103) and other.go (file-ignore LA108)
	// are dropped; LA112 is off in the config; the stale LA114 directive
	// on line 15 cannot be detected in this mode.
	want := strings.Join([]string{
		"svc.go:12: LA100", "svc.go:12: LA103", "svc.go:13: LA100", "svc.go:13: LA103",
		"svc.go:16: LA103", "svc.go:6: LA103",
	}, "\n")
	if got := vet(); got != want {
		t.Errorf("go vet -vettool:\n%s\nwant:\n%s", got, want)
	}
	// An explicit -LA112 wins over the config turning it off; the
	// config's target (valkey-8.1) makes DELIFEQ a finding.
	if got := vet("-LA112"); got != "other.go:7: LA112\nother.go:8: LA112" {
		t.Errorf("go vet -LA112:\n%s", got)
	}
	if got := vet("-LA112", "-LA112.target=valkey-9.0"); got != "" {
		t.Errorf("-LA112.target must win over the config's target:\n%s", got)
	}
	// Editing the config changes the result, though go vet caches.
	if err := os.WriteFile(filepath.Join(mod, ".lockaudit.yaml"), []byte("rules:\n  LA103: off\n  LA100: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := vet(); got != "" {
		t.Errorf("after turning LA103 and LA100 off in the config:\n%s", got)
	}
	// A broken config is an error, not a silent default.
	if err := os.WriteFile(filepath.Join(mod, ".lockaudit.yaml"), []byte("rulez: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = mod
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), ".lockaudit.yaml:1: rulez: unknown key") {
		t.Errorf("a broken config: %v\n%s", err, out)
	}
}
