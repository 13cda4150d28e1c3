package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
)

// versionRE finds lockaudit's own version in JSON and SARIF output, which
// golden files must not pin.
var versionRE = regexp.MustCompile(`("name": "lockaudit",\s*"version": ")[^"]*(")`)

func scrub(s string) string { return versionRE.ReplaceAllString(s, "${1}VERSION${2}") }

// TestVetGolden runs vet on the bundled example in each format.
func TestVetGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "vet", "-C", example, "-format", format, "./...")
			golden.Check(t, filepath.Join("testdata", "example."+format+".golden"), []byte(scrub(stdout)))
			if !strings.HasPrefix(stderr, "lockaudit vet: ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr must be the one summary line, got %q", stderr)
			}
			var run report.Run
			if format == "json" {
				if err := json.Unmarshal([]byte(stdout), &run); err != nil {
					t.Fatal(err)
				}
				if want := report.ExitCode(&run); code != want {
					t.Errorf("exit code %d, but the run's is %d", code, want)
				}
				if len(run.Errors) != 0 {
					t.Errorf("the example must load cleanly: %+v", run.Errors)
				}
			}
			if format == "sarif" {
				if err := sarifcheck.Validate([]byte(stdout)); err != nil {
					t.Errorf("SARIF of the example does not validate: %v", err)
				}
				sarifcheck.Multitool(t, []byte(stdout))
			}
		})
	}
}

// TestVetExitCodesAgreeAcrossFormats: every format of one run exits the same.
func TestVetExitCodesAgreeAcrossFormats(t *testing.T) {
	codes := map[string]int{}
	for _, format := range []string{"text", "json", "sarif"} {
		_, _, codes[format] = runCLI(t, "vet", "-C", example, "-format", format, "./...")
	}
	if codes["text"] != codes["json"] || codes["json"] != codes["sarif"] {
		t.Errorf("exit codes differ by format: %v", codes)
	}
}

func TestVetOutputFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.sarif")
	stdout, stderr, _ := runCLI(t, "vet", "-C", example, "-o", out, "./...")
	if stdout != "" {
		t.Errorf("with -o, stdout must stay empty: %q", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifcheck.Validate(data); err != nil {
		t.Errorf("-o run.sarif must pick SARIF from the extension: %v", err)
	}
	if !strings.Contains(stderr, "report written to "+out) {
		t.Errorf("stderr does not say where the report went: %q", stderr)
	}
	// -o relative to -C, as with go -C.
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "x.go": "package x\n"})
	if _, stderr, code := runCLI(t, "vet", "-C", mod, "-o", "out.json"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(mod, "out.json")); err != nil {
		t.Errorf("-o out.json with -C DIR must write DIR/out.json: %v", err)
	}
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestVetBadInput: every bad input gets a clear message naming what is
// wrong, and its documented exit code.
func TestVetBadInput(t *testing.T) {
	broken := writeModule(t, map[string]string{
		"go.mod":     "module example.com/b\n\ngo 1.22\n",
		"ok/ok.go":   "package ok\n\nfunc OK() {}\n",
		"bad/bad.go": "package bad\n\nfunc B() int { return undefinedThing }\n",
		"empty/READ": "no Go here\n",
	})
	nomod := writeModule(t, map[string]string{"x.go": "package x\n"})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string // substrings of stderr
	}{
		{"unknown format", []string{"vet", "-format", "xml", "./..."}, 2, []string{`unknown -format "xml"`, "json", "sarif", "text"}},
		{"unknown target", []string{"vet", "-target", "valkey-9.7", "./..."}, 2, []string{"-target", "valkey-9.0", "redis-8.4", "valkey-9.7"}},
		{"malformed target", []string{"vet", "-target", "memcached", "./..."}, 2, []string{"-target", "memcached"}},
		{"unknown rule", []string{"vet", "-rules", "LA103,LA999", "./..."}, 2, []string{"-rules", "LA999"}},
		{"only node rules", []string{"vet", "-rules", "LA201"}, 2, []string{"selects no code rule"}},
		{"unknown flag", []string{"vet", "-frobnicate"}, 2, []string{"usage: lockaudit vet", "frobnicate"}},
		{"bad flag after patterns", []string{"vet", "./...", "-format", "xml"}, 2, []string{`unknown -format "xml"`}},
		{"bad -o extension", []string{"vet", "-o", "report.xml"}, 2, []string{".sarif", "report.xml"}},
		{"missing -C dir", []string{"vet", "-C", "/nonexistent/dir"}, 2, []string{"-C /nonexistent/dir: not a directory"}},
		{"pattern matches nothing", []string{"vet", "-C", broken, "./empty/..."}, 1, []string{"# ./empty/...", "incomplete run", "pattern matched no packages"}},
		{"one of two patterns matches nothing", []string{"vet", "-C", broken, "-format", "json", "./ok", "./empty/..."}, 1, []string{"# ./empty/...", "pattern matched no packages"}},
		{"package does not exist", []string{"vet", "-C", broken, "./nope"}, 1, []string{"nope", "directory not found"}},
		{"no go.mod", []string{"vet", "-C", nomod, "./..."}, 1, []string{"main module"}},
		{"-o in a missing folder (checked before the analysis)", []string{"vet", "-C", broken, "-o", "/nonexistent/dir/out.json", "./ok"}, 2, []string{"-o: /nonexistent/dir/out.json: the folder /nonexistent/dir does not exist"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			// The report (text on stdout) shows the errors in full; stderr
			// alone must still name what is wrong.
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", w, stdout, stderr)
				}
			}
			if !strings.Contains(stderr, tc.want[len(tc.want)-1]) {
				t.Errorf("stderr alone does not say %q:\n%s", tc.want[len(tc.want)-1], stderr)
			}
			if strings.Contains(stdout+stderr, "panic") || strings.Contains(stdout+stderr, "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", stderr)
			}
		})
	}
}

// TestVetBrokenPackage: a package that does not compile is reported with
// the compiler's error, the others are still analysed, and the run fails.
func TestVetBrokenPackage(t *testing.T) {
	mod := writeModule(t, map[string]string{
		"go.mod":     "module example.com/b\n\ngo 1.22\n",
		"ok/ok.go":   "package ok\n\nfunc OK() {}\n",
		"bad/bad.go": "package bad\n\nfunc B() int { return undefinedThing }\n",
	})
	stdout, stderr, code := runCLI(t, "vet", "-C", mod, "-format", "json", "./...")
	if code != report.ExitFailed {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "# example.com/b/bad\nbad/bad.go:3:23: undefined: undefinedThing\n") {
		t.Errorf("stderr lacks the compiler error in go vet form:\n%s", stderr)
	}
	var run report.Run
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatal(err)
	}
	if len(run.Errors) != 1 || run.Errors[0].Where != "example.com/b/bad" {
		t.Errorf("errors: %+v", run.Errors)
	}
	// Text on stdout carries the errors in full; stderr is the one summary
	// line, which says how much was analysed and names the first error. A
	// report file keeps them too.
	stdout, stderr, _ = runCLI(t, "vet", "-C", mod, "./...")
	if !strings.Contains(stdout, "# example.com/b/bad\nbad/bad.go:3:23: undefined: undefinedThing\n") ||
		stderr != "lockaudit vet: no findings; incomplete run: analysed 1 of 2 packages, 1 error (example.com/b/bad: bad/bad.go:3:23: undefined: undefinedThing)\n" {
		t.Errorf("text: the errors belong in the report, and the summary names the first.\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if _, _, code := runCLI(t, "vet", "-C", mod, "-o", "report.txt", "./..."); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if data, _ := os.ReadFile(filepath.Join(mod, "report.txt")); !strings.Contains(string(data), "# example.com/b/bad\nbad/bad.go:3:23: undefined: undefinedThing") {
		t.Errorf("report.txt lacks the error:\n%s", data)
	}
}

// TestNoGoModHint: run outside any module, vet says what to do (the go
// command's "directory prefix . does not contain main module" does not);
// inside a module a bad pattern gets no such hint.
func TestNoGoModHint(t *testing.T) {
	dir := t.TempDir()
	if inModule(dir) {
		t.Skipf("%s is inside a module here", dir)
	}
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644)
	_, stderr, code := runIn(t, dir, nil, "vet", "./...")
	if code != report.ExitFailed || !strings.Contains(stderr, "no go.mod in "+dir+" or any folder above it: run lockaudit in your module's folder, where go.mod is, or give -C DIR") {
		t.Errorf("exit %d, %s", code, stderr)
	}
	mod := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "m.go": "package m\n"})
	if _, stderr, _ := runIn(t, mod, nil, "vet", "./nothing/..."); strings.Contains(stderr, "no go.mod") {
		t.Errorf("a hint inside a module: %s", stderr)
	}
}
