// Package tooltest finds the external tools tests check lockaudit's output
// with. A missing tool skips the test on a developer's machine, and fails
// it where the tool must be there: CI (.ci/test installs each and sets the
// LOCKAUDIT_REQUIRE_* variable), so a check can never silently stop
// running.
package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// RequireGit is the variable under which a missing git fails the test.
const RequireGit = "LOCKAUDIT_REQUIRE_GIT"

// Git returns the path of git, which checks that lockaudit's diffs apply
// (`git apply`).
func Git(t testing.TB) string {
	t.Helper()
	path, fail, msg := find("git", RequireGit, exec.LookPath, os.Getenv)
	switch {
	case fail:
		t.Fatal(msg)
	case path == "":
		t.Skip(msg)
	}
	return path
}

// find decides for one tool: its path, or whether its absence fails the
// test, and what to say.
func find(tool, require string, lookPath func(string) (string, error), getenv func(string) string) (path string, fail bool, msg string) {
	path, err := lookPath(tool)
	if err == nil {
		return path, false, ""
	}
	if getenv(require) == "1" {
		return "", true, tool + " is not installed, and " + require + "=1: .ci/test installs it"
	}
	return "", false, tool + " is not installed (" + require + "=1 makes this a failure)"
}
