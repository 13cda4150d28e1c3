package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestVersionFromCleanClone: a plain go build ./cmd/lockaudit (no
// -ldflags) in a fresh clone gives a binary whose version names the
// clone's commit, its time, a clean tree and the Go version.
func TestVersionFromCleanClone(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds lockaudit")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Run(); err != nil {
		t.Skipf("not a git checkout (%v): nothing to stamp", err)
	}
	clone := filepath.Join(t.TempDir(), "lockaudit")
	if out, err := exec.Command("git", "clone", "--quiet", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", clone}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	rev := git("rev-parse", "HEAD")
	when, err := time.Parse(time.RFC3339, git("log", "-1", "--format=%cI"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "lockaudit")
	build := exec.Command("go", "build", "-o", bin, "./cmd/lockaudit")
	build.Dir = clone
	// A plain build: Go's default -buildvcs=auto, whatever this machine's
	// go env file says (it may turn VCS stamping off).
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=auto")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/lockaudit in the clone: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("lockaudit version: %v", err)
	}
	want := "commit:   " + rev + " (" + when.UTC().Format(time.RFC3339) + ")\n"
	if !strings.Contains(string(out), want) || strings.Contains(string(out), "modified") {
		t.Errorf("lockaudit version:\n%s\nwant the clean clone's commit line %q", out, want)
	}
	if !strings.Contains(string(out), "\ngo:       "+runtime.Version()+" ") {
		t.Errorf("lockaudit version does not name the Go version %s:\n%s", runtime.Version(), out)
	}
	if first, _, _ := strings.Cut(string(out), "\n"); !strings.Contains(first, rev[:12]) {
		t.Errorf("the module version %q is not the commit's pseudo-version", first)
	}
}
