package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the repository root, seen from this package.
const repoRoot = "../.."

// commandPages names the page under docs/ that documents each command. A
// new command fails TestEveryCommandHasAPage until it has one.
var commandPages = map[string]string{
	"vet":       "vet.md",
	"audit":     "audit.md",
	"preflight": "preflight.md",
	"probe":     "probe.md",
	"render":    "render.md",
	"diff":      "diff.md",
	"demo":      "demo.md",
	"rules":     "rules/README.md",
	"explain":   "rules/README.md",
	"config":    "config.md",
	"scan":      "fleet-commands.md",
	"conform":   "fleet-commands.md",
	"drill":     "drill.md",
	"version":   "install.md",
}

// helpFlag is a flag line of a help page: "  -name ARG".
var helpFlag = regexp.MustCompile(`(?m)^  -([\w.-]+)`)

// TestEveryCommandHasAPage: each command has a page under docs/, and the
// page names every flag its help page lists, so nothing a command accepts
// is documented only in the terminal.
func TestEveryCommandHasAPage(t *testing.T) {
	var names []string
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		page, ok := commandPages[name]
		if !ok {
			t.Errorf("command %s has no page under docs/ (add it to commandPages)", name)
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, "docs", page))
		if err != nil {
			t.Errorf("command %s: %v", name, err)
			continue
		}
		help, _, code := runCLI(t, "help", name)
		if code != 0 {
			t.Fatalf("help %s: exit %d", name, code)
		}
		flags := helpFlag.FindAllStringSubmatch(help, -1)
		if name == "vet" && len(flags) < 10 {
			t.Fatalf("help vet lists %d flags; the pattern no longer finds them:\n%s", len(flags), help)
		}
		for _, m := range flags {
			if !regexp.MustCompile(`(^|[^\w-])-` + regexp.QuoteMeta(m[1]) + `([^\w-]|$)`).Match(data) {
				t.Errorf("docs/%s does not document %s's flag -%s", page, name, m[1])
			}
		}
	}
}

// sampleBlock is a README block marked as real output: the command after
// "$ ", then its output, where … stands for text left out.
var sampleBlock = regexp.MustCompile("(?s)<!-- sample:[^>]*-->\n```\n\\$ ([^\n]*)\n(.*?)```")

// TestReadmeSamplesAreReal runs each command the README shows a sample of
// (in a clone, on the bundled example) and checks that every line of the
// sample is a line of the real output, with … standing for what was cut:
// the pieces between the … must appear in order in one output line, the
// first at its start. A line that is only … stands for whole lines.
func TestReadmeSamplesAreReal(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := sampleBlock.FindAllStringSubmatch(string(data), -1)
	if len(blocks) == 0 {
		t.Fatal("the README shows no sample output")
	}
	for _, b := range blocks {
		args := strings.Fields(strings.TrimPrefix(strings.TrimSpace(b[1]), "lockaudit"))
		for i, a := range args {
			if a == "testdata/example" {
				args[i] = exampleDir(t)
			}
		}
		stdout, stderr, _ := runIn(t, t.TempDir(), nil, args...)
		real := strings.Split(stdout+stderr, "\n")
		for _, line := range strings.Split(strings.TrimRight(b[2], "\n"), "\n") {
			if line == "…" {
				continue
			}
			if !sampleMatches(line, real) {
				t.Errorf("README sample of `$ %s`: %q is not in the real output; update the README to what it prints now:\n%s%s", b[1], line, stdout, stderr)
			}
		}
	}
}

func sampleMatches(sample string, real []string) bool {
	pieces := strings.Split(sample, "…")
	for _, line := range real {
		if !strings.HasPrefix(line, pieces[0]) {
			continue
		}
		rest, ok := line[len(pieces[0]):], true
		for _, p := range pieces[1:] {
			i := strings.Index(rest, p)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(p):]
		}
		if ok && (len(pieces) > 1 || rest == "") {
			return true
		}
	}
	return false
}

func TestSampleMatches(t *testing.T) {
	real := []string{"a: LA101 Lua lock script fails where Lua is absent", "Verdict: UNSAFE"}
	for sample, want := range map[string]bool{
		"a: LA101 Lua lock script fails where Lua is absent": true,
		"a: LA101 Lua lock …":                                true,
		"a: LA101 …where Lua…":                               true,
		"a: LA101 Lua lock script fails":                     false, // a cut needs its …
		"a: LA101 …LA101…":                                   false,
		"Verdict: SAFE":                                      false,
		"b: LA101 …":                                         false,
	} {
		if got := sampleMatches(sample, real); got != want {
			t.Errorf("sampleMatches(%q) = %v, want %v", sample, got, want)
		}
	}
}
