package tooltest

import (
	"errors"
	"testing"
)

func TestFind(t *testing.T) {
	missing := func(string) (string, error) { return "", errors.New("not found") }
	present := func(string) (string, error) { return "/usr/bin/git", nil }
	env := func(v string) func(string) string { return func(string) string { return v } }
	for _, tc := range []struct {
		name    string
		look    func(string) (string, error)
		require string
		path    string
		fail    bool
	}{
		{"present", present, "1", "/usr/bin/git", false},
		{"missing in CI", missing, "1", "", true},
		{"missing elsewhere", missing, "", "", false},
	} {
		path, fail, msg := find("git", RequireGit, tc.look, env(tc.require))
		if path != tc.path || fail != tc.fail || (path == "") != (msg != "") {
			t.Errorf("%s: path %q fail %t msg %q", tc.name, path, fail, msg)
		}
	}
}
