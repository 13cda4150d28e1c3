package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
)

// badTarget is something at an output path that lockaudit must not
// replace, and how to tell it is still there, untouched.
type badTarget struct {
	name, want string
	make       func(t *testing.T, path string)
}

// badTargets: a device (the real /dev/null where the path is free, else a
// device node made in place as root), a FIFO, a symbolic link to a report,
// a read-only report and a folder.
var badTargets = []badTarget{
	{"device", "is a device, not a regular file", func(t *testing.T, path string) {
		if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, 1<<8|3); err != nil { // the null device, 1:3
			t.Skipf("cannot make a device node (not root?): %v", err)
		}
	}},
	{"fifo", "is a named pipe (FIFO), not a regular file", func(t *testing.T, path string) {
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"symlink", "is a symbolic link (to ", func(t *testing.T, path string) {
		real := path + ".real"
		os.WriteFile(real, []byte("old report\n"), 0o644)
		if err := os.Symlink(real, path); err != nil {
			t.Fatal(err)
		}
	}},
	{"read-only", "is read-only", func(t *testing.T, path string) {
		os.WriteFile(path, []byte("old report\n"), 0o444)
	}},
	{"folder", "is a folder, not a regular file", func(t *testing.T, path string) {
		os.Mkdir(path, 0o755)
	}},
}

// snapshotPath records what is at path (and behind a link) to compare
// after the run.
func snapshotPath(t *testing.T, path string) func() {
	t.Helper()
	before, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	content := func() string {
		if before.Mode().IsRegular() || before.Mode()&fs.ModeSymlink != 0 {
			data, _ := os.ReadFile(path)
			return string(data)
		}
		return ""
	}
	old := content()
	return func() {
		t.Helper()
		after, err := os.Lstat(path)
		if err != nil || after.Mode() != before.Mode() || !os.SameFile(before, after) || content() != old {
			t.Errorf("%s was replaced or changed: %v -> %v (%v)", path, before.Mode(), after, err)
		}
	}
}

// TestOutputsRefuseNonRegular: every command that writes a file — vet -o,
// vet -write-baseline, preflight -o, probe -o, scan -o, conform -o, render
// -o, config init -force — refuses a device, a FIFO, a symbolic link, a read-only file and
// a folder at the path, names what is there, and leaves it as it was. The
// commands that run long check before they start (exit 2); render, which
// is quick, finds it when writing (exit 1), as does config init.
func TestOutputsRefuseNonRegular(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	runJSON := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(runJSON, renderTo(t, builtRun(), "json"), 0o644)
	commands := []struct {
		name string
		code int
		args func(path string) []string
	}{
		{"vet -o", report.ExitUsage, func(p string) []string { return []string{"vet", "-C", mod, "-format", "json", "-o", p, "./..."} }},
		{"vet -write-baseline", report.ExitUsage, func(p string) []string { return []string{"vet", "-C", mod, "-write-baseline", p, "./..."} }},
		{"preflight -o", report.ExitUsage, func(p string) []string {
			return []string{"preflight", "-C", mod, "-target", "valkey-9.0", "-format", "json", "-o", p, "./..."}
		}},
		// The probe's -o is checked before any node is dialled: nothing
		// listens on 127.0.0.1:1, so reaching the probe would exit 1.
		{"probe -o", report.ExitUsage, func(p string) []string { return []string{"probe", "-format", "json", "-o", p, "127.0.0.1:1"} }},
		{"scan -o", report.ExitUsage, func(p string) []string { return []string{"scan", "-format", "json", "-o", p, "127.0.0.1:1"} }},
		{"conform -o", report.ExitUsage, func(p string) []string {
			return []string{"conform", "-write-scratch-key", "-format", "json", "-o", p, "127.0.0.1:1"}
		}},
		{"render -o", report.ExitFailed, func(p string) []string { return []string{"render", "-format", "json", "-o", p, runJSON} }},
		{"config init -force", report.ExitFailed, func(p string) []string { return []string{"config", "init", "-force", "-C", filepath.Dir(p)} }},
	}
	for _, c := range commands {
		for _, bt := range badTargets {
			t.Run(c.name+"/"+bt.name, func(t *testing.T) {
				// The one name config init writes, in a folder of its own:
				// the commands run elsewhere, so none reads it as its config.
				dir := t.TempDir()
				path := filepath.Join(dir, config.FileName)
				bt.make(t, path)
				unchanged := snapshotPath(t, path)
				stdout, stderr, code := runIn(t, t.TempDir(), nil, c.args(path)...)
				if code != c.code || !strings.Contains(stderr, path+" "+bt.want) {
					t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, bt.want)
				}
				if stdout != "" {
					t.Errorf("stdout %q", stdout)
				}
				unchanged()
				if ents, _ := os.ReadDir(dir); len(ents) > 2 {
					t.Errorf("files left in %s: %v", dir, ents)
				}
			})
		}
	}
}

// TestOutputDevNull: as root, -o /dev/null used to rename a regular file
// over the device; it is refused and /dev/null stays the device.
func TestOutputDevNull(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	unchanged := snapshotPath(t, os.DevNull)
	for _, args := range [][]string{
		{"vet", "-C", mod, "-format", "json", "-o", os.DevNull, "./..."},
		{"preflight", "-C", mod, "-target", "valkey-9.0", "-format", "text", "-o", os.DevNull, "./..."},
		{"probe", "-o", os.DevNull, "127.0.0.1:1"},
	} {
		_, stderr, code := runIn(t, t.TempDir(), nil, args...)
		if code != report.ExitUsage || !strings.Contains(stderr, "/dev/null is a device, not a regular file") || !strings.Contains(stderr, "-o - writes to stdout") {
			t.Errorf("%s -o /dev/null: exit %d, %s", args[0], code, stderr)
		}
	}
	unchanged()
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a character device: %v %v", fi, err)
	}
}

// TestOutputDash: -o - is stdout for every command, and no file named "-"
// appears.
func TestOutputDash(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	dir := t.TempDir()
	runJSON := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(runJSON, renderTo(t, builtRun(), "json"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"vet", "-C", mod, "-format", "json", "-o", "-", "./..."}, `"command": "vet"`},
		{[]string{"preflight", "-C", mod, "-target", "valkey-9.0", "-o", "-", "./..."}, "Verdict:"},
		{[]string{"probe", "-timeout", "1s", "-o", "-", "127.0.0.1:1"}, "Verdict:"},
		{[]string{"render", "-o", "-", runJSON}, "Verdict:"},
	} {
		stdout, stderr, _ := runIn(t, dir, nil, tc.args...)
		if !strings.Contains(stdout, tc.want) {
			t.Errorf("%s -o -: stdout lacks %q:\n%s\n%s", tc.args[0], tc.want, stdout, stderr)
		}
		if _, err := os.Lstat(filepath.Join(dir, "-")); err == nil {
			t.Errorf("%s -o - created a file named -", tc.args[0])
		}
		if _, err := os.Lstat(filepath.Join(mod, "-")); err == nil {
			t.Errorf("%s -o - created a file named - in -C", tc.args[0])
		}
	}
}

// TestOutputReplacesAtomically: a report over an existing one replaces it
// whole, keeps its mode, and leaves no temporary file.
func TestOutputReplacesAtomically(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	dir := t.TempDir()
	out := filepath.Join(dir, "vet.json")
	os.WriteFile(out, []byte("old"), 0o640)
	if _, stderr, code := runIn(t, dir, nil, "vet", "-C", mod, "-o", out, "./..."); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, _ := os.ReadFile(out)
	fi, _ := os.Stat(out)
	if !strings.Contains(string(data), `"command": "vet"`) || fi.Mode().Perm() != 0o640 {
		t.Errorf("report %q mode %v", data, fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

// TestFixThroughSymlink: -fix edits a source file that is a symbolic link
// through its real path, so the link stays a link; a link to a read-only
// file is refused (exit 1) and nothing changes.
func TestFixThroughSymlink(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example's real modules")
	}
	dir := copyExample(t)
	link := filepath.Join(dir, "inventory", "inventory.go")
	real := filepath.Join(t.TempDir(), "inventory.go")
	if err := os.Rename(link, real); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	os.Chmod(real, 0o444)
	old, _ := os.ReadFile(real)
	_, stderr, code := runCLI(t, "vet", "-C", dir, "-fix", "./inventory")
	if code != report.ExitFailed || !strings.Contains(stderr, real+" is read-only") {
		t.Errorf("-fix of a link to a read-only file: exit %d, %s", code, stderr)
	}
	if data, _ := os.ReadFile(real); string(data) != string(old) {
		t.Error("the read-only file was changed")
	}

	os.Chmod(real, 0o640)
	_, stderr, code = runCLI(t, "vet", "-C", dir, "-fix", "./inventory")
	if code != report.ExitOK && code != report.ExitFindings {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the source link was replaced by a file: %v %v", fi, err)
	}
	fixed, _ := os.ReadFile(real)
	if string(fixed) == string(old) || !strings.Contains(string(fixed), `"DELIFEQ"`) {
		t.Errorf("the real file was not fixed:\n%s", fixed)
	}
	if rfi, _ := os.Stat(real); rfi.Mode().Perm() != 0o640 {
		t.Errorf("the real file's mode changed to %v", rfi.Mode().Perm())
	}
}
