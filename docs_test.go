package lockaudit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docFiles are the Markdown files a reader is sent to: the README, the
// files beside it, and every page under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "SECURITY.md", "CHANGELOG.md"}
	err := filepath.WalkDir("docs", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`^#{1,6} +(.*?) *#*$`)
)

// prose returns a Markdown file's lines outside fenced code blocks.
func prose(text string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return out
}

// anchors are the link targets GitHub makes of a file's headings: lower
// case, punctuation dropped, spaces as hyphens, repeats numbered.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, line := range prose(text) {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		base := b.String()
		a := base
		for i := 1; out[a]; i++ {
			a = fmt.Sprintf("%s-%d", base, i)
		}
		out[a] = true
	}
	return out
}

// links returns the relative links of a file, resolved against the
// repository root: "docs/ci.md#exit-codes".
func links(file, text string) []string {
	var out []string
	for _, line := range prose(text) {
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			if path == "" {
				path = file
			} else {
				path = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
			}
			if frag != "" {
				path += "#" + frag
			}
			out = append(out, path)
		}
	}
	return out
}

// TestDocsLinksResolve: every relative link of the README and the docs
// names a file that exists and, with a #fragment, a heading in it.
func TestDocsLinksResolve(t *testing.T) {
	n := 0
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links(f, string(data)) {
			n++
			path, frag, _ := strings.Cut(l, "#")
			target, err := os.ReadFile(path)
			if err != nil {
				if info, serr := os.Stat(path); serr == nil && info.IsDir() && frag == "" {
					continue
				}
				t.Errorf("%s links to %s, which does not exist", f, l)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !anchors(string(target))[frag] {
				t.Errorf("%s links to %s: %s has no heading #%s", f, l, path, frag)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d links found: the pattern misses them", n)
	}
}

// TestDocsPagesReachable: every page under docs/ can be reached from the
// README by following links, and every page directly in docs/ is listed
// in docs/README.md, the index.
func TestDocsPagesReachable(t *testing.T) {
	seen := map[string]bool{"README.md": true}
	queue := []string{"README.md"}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		data, err := os.ReadFile(f)
		if err != nil {
			continue // TestDocsLinksResolve reports it
		}
		for _, l := range links(f, string(data)) {
			path, _, _ := strings.Cut(l, "#")
			if strings.HasSuffix(path, ".md") && !seen[path] {
				seen[path] = true
				queue = append(queue, path)
			}
		}
	}
	index, err := os.ReadFile("docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, l := range links("docs/README.md", string(index)) {
		path, _, _ := strings.Cut(l, "#")
		listed[path] = true
	}
	for _, f := range docFiles(t) {
		if !seen[f] {
			t.Errorf("%s cannot be reached from the README", f)
		}
		if filepath.Dir(f) == "docs" && f != "docs/README.md" && !listed[f] {
			t.Errorf("%s is not listed in docs/README.md", f)
		}
	}
}

// testName is a Go test function's name.
var testName = regexp.MustCompile(`\bTest[A-Z]\w*`)

// TestDocsNameNoTests: the README and the docs tell users what lockaudit
// does, not which test checks it.
func TestDocsNameNoTests(t *testing.T) {
	for _, f := range docFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := testName.FindString(line); m != "" {
				t.Errorf("%s:%d names the test %s", f, i+1, m)
			}
		}
	}
}

// TestReadmeIsOneScreen: the README stays what a newcomer reads in two
// minutes; the rest belongs under docs/.
func TestReadmeIsOneScreen(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 130 {
		t.Errorf("README.md has %d lines; keep it under 130 and move the detail to a page under docs/", n)
	}
	if !strings.Contains(string(data), "(docs/README.md)") {
		t.Error("README.md does not link the documentation index, docs/README.md")
	}
}
