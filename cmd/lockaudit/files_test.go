package main

import (
	"io/fs"
	"os"
	"os/exec"
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

// TestOutputDevices: -o /dev/null and -o /dev/stdout do what users expect
// of them in every command: /dev/null discards the report (the run exits
// as it would without it) and stays the device; /dev/stdout is stdout,
// beside the other -o files. Before, both were refused (exit 2) — and as
// root, an earlier version renamed a file over /dev/null.
func TestOutputDevices(t *testing.T) {
	// An LA100 finding (a directive without a reason), so vet's text
	// report is not empty.
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\n//lockaudit:ignore LA103\nfunc F() {}\n"})
	runJSON := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(runJSON, renderTo(t, builtRun(), "json"), 0o644)
	unchanged := snapshotPath(t, os.DevNull)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"vet", "-C", mod, "./..."}, report.ExitFindings},
		{[]string{"preflight", "-C", mod, "-target", "valkey-9.0", "./..."}, report.ExitFindings},
		{[]string{"probe", "-timeout", "1s", "127.0.0.1:1"}, report.ExitFailed},
		{[]string{"scan", "-timeout", "1s", "127.0.0.1:1"}, report.ExitFailed},
		{[]string{"render", runJSON}, 0},
		{[]string{"diff", runJSON, runJSON}, 0},
	} {
		dir := t.TempDir()
		args := append([]string{tc.args[0], "-o", os.DevNull, "-o", "/dev/stdout", "-o", filepath.Join(dir, "r.json")}, tc.args[1:]...)
		stdout, stderr, code := runIn(t, dir, nil, args...)
		if code != tc.code || strings.Contains(stderr, "not a regular file") {
			t.Errorf("%s: exit %d, want %d\n%s", strings.Join(args, " "), code, tc.code, stderr)
		}
		if strings.TrimSpace(stdout) == "" {
			t.Errorf("%s: -o /dev/stdout wrote nothing to stdout", args[0])
		}
		if data, err := os.ReadFile(filepath.Join(dir, "r.json")); err != nil || !strings.HasPrefix(string(data), "{") {
			t.Errorf("%s: r.json beside /dev/null and /dev/stdout: %v %.40q", args[0], err, data)
		}
	}
	unchanged()
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a character device: %v %v", fi, err)
	}
	_, stderr, code := runIn(t, t.TempDir(), nil, "vet", "-C", mod, "-o", "-", "-o", "/dev/stdout", "./...")
	if code != report.ExitUsage || !strings.Contains(stderr, "-o /dev/stdout: stdout is already named by -o -") {
		t.Errorf("stdout named twice: exit %d, %s", code, stderr)
	}
}

// TestOutputDevStdoutBinary: the real binary with its stdout redirected
// to a file writes the report into that file through /dev/stdout, and
// the file is written to, not replaced (same inode).
func TestOutputDevStdoutBinary(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	out := filepath.Join(t.TempDir(), "captured")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := f.Stat()
	cmd := exec.Command(lockauditBinary(t), "vet", "-C", mod, "-format", "json", "-o", "/dev/stdout", "./...")
	cmd.Stdout = f
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	f.Close()
	if err != nil {
		t.Fatalf("vet -o /dev/stdout: %v\n%s", err, stderr.String())
	}
	after, _ := os.Stat(out)
	data, _ := os.ReadFile(out)
	if !os.SameFile(before, after) || !strings.Contains(string(data), `"command": "vet"`) {
		t.Errorf("stdout file replaced (%v) or without the report: %.60q", !os.SameFile(before, after), data)
	}
}

// TestOutputFormatsByExtension: several -o are each written in the format
// of their extension, in every command that writes reports; a -format
// that contradicts an extension is refused before any work (no text in an
// .html file), and -json is -format json.
func TestOutputFormatsByExtension(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	runJSON := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(runJSON, renderTo(t, builtRun(), "json"), 0o644)
	looks := map[string]func(string) bool{
		"a.json":  func(s string) bool { return strings.HasPrefix(s, "{") && !strings.Contains(s, `"$schema"`) },
		"b.sarif": func(s string) bool { return strings.Contains(s, `"$schema"`) && strings.Contains(s, "sarif") },
		"c.md":    func(s string) bool { return strings.HasPrefix(s, "#") || strings.HasPrefix(s, ">") },
		"d.html":  func(s string) bool { return strings.HasPrefix(strings.ToLower(s), "<!doctype html") },
		"e.txt":   func(s string) bool { return !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "<") },
	}
	for _, base := range [][]string{
		{"vet", "-C", "MOD", "./..."},
		{"preflight", "-C", "MOD", "-target", "valkey-9.0", "./..."},
		{"probe", "-timeout", "1s", "127.0.0.1:1"},
		{"scan", "-timeout", "1s", "127.0.0.1:1"},
		{"conform", "-write-scratch-key", "-timeout", "1s", "127.0.0.1:1"},
		{"render", runJSON},
		{"diff", runJSON, runJSON},
	} {
		dir := t.TempDir()
		args := []string{base[0]}
		for name := range looks {
			args = append(args, "-o", filepath.Join(dir, name))
		}
		for _, a := range base[1:] {
			args = append(args, strings.ReplaceAll(a, "MOD", mod))
		}
		_, stderr, code := runIn(t, dir, nil, args...)
		if code == report.ExitUsage {
			t.Errorf("%s: exit 2: %s", base[0], stderr)
			continue
		}
		for name, ok := range looks {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !ok(string(data)) {
				t.Errorf("%s -o %s: not in its extension's format (%v): %.80q", base[0], name, err, data)
			}
		}
		// A -format that contradicts an extension: refused before any work.
		dir = t.TempDir()
		args = append([]string{base[0], "-format", "text", "-o", "r.html"}, args[1+2*len(looks):]...)
		_, stderr, code = runIn(t, dir, nil, args...)
		if code != report.ExitUsage || !strings.Contains(stderr, "the extension says html, but -format says text") {
			t.Errorf("%s -format text -o r.html: exit %d, %s", base[0], code, stderr)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: files written although the flags were refused: %v", base[0], ents)
		}
	}
	// -json is -format json; -json with another -format is refused.
	stdout, _, _ := runIn(t, t.TempDir(), nil, "vet", "-C", mod, "-json", "./...")
	if !strings.Contains(stdout, `"command": "vet"`) {
		t.Errorf("vet -json: %.80q", stdout)
	}
	if _, stderr, code := runIn(t, t.TempDir(), nil, "vet", "-C", mod, "-json", "-format", "sarif", "./..."); code != report.ExitUsage || !strings.Contains(stderr, "-json and -format sarif disagree") {
		t.Errorf("-json -format sarif: exit %d, %s", code, stderr)
	}
	// SARIF in a .json file is accepted (SARIF is JSON).
	dir := t.TempDir()
	if _, stderr, code := runIn(t, dir, nil, "vet", "-C", mod, "-format", "sarif", "-o", filepath.Join(dir, "r.json"), "./..."); code != 0 {
		t.Errorf("-format sarif -o r.json: exit %d, %s", code, stderr)
	} else if data, _ := os.ReadFile(filepath.Join(dir, "r.json")); !strings.Contains(string(data), `"$schema"`) {
		t.Errorf("r.json is not SARIF: %.80q", data)
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

// TestReportsAllOrNone: when one of several -o cannot be written, none
// is: render (which finds a bad path only when writing) used to write the
// first report and then fail on the second.
func TestReportsAllOrNone(t *testing.T) {
	runJSON := filepath.Join(t.TempDir(), "run.json")
	os.WriteFile(runJSON, renderTo(t, builtRun(), "json"), 0o644)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	_, stderr, code := runIn(t, dir, nil, "render", "-o", good, "-o", filepath.Join(dir, "missing", "r.html"), runJSON)
	if code != report.ExitFailed || !strings.Contains(stderr, "does not exist") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(good); err == nil {
		t.Error("good.json was written although the other report failed (want all or none)")
	}
}

// TestReportsHonourUmask: a new report is 0666 less the umask (0600
// under umask 077, where it used to be 0644, readable by everyone).
func TestReportsHonourUmask(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/clean\n\ngo 1.22\n", "clean.go": "package clean\n\nfunc F() {}\n"})
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	if _, stderr, code := runIn(t, dir, nil, "vet", "-C", mod, "-o", out, "-o", filepath.Join(dir, "r.html"), "./..."); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"run.json", "r.html"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s under umask 077: mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
}
