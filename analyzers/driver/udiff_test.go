package driver

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/internal/tooltest"
)

// TestUnifiedApplies checks the diffs against git apply: random edits of
// random files, files without a final newline, emptied and created files.
func TestUnifiedApplies(t *testing.T) {
	git := tooltest.Git(t)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(1))
	words := []string{"a", "b", "c", "d", "}", "{", "return nil", ""}
	gen := func(n int) []string {
		var ls []string
		for range n {
			ls = append(ls, words[r.Intn(len(words))])
		}
		return ls
	}
	cases := [][2]string{
		{"", "x\n"},
		{"x\n", ""},
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nc"},
		{"same\n", "same\n"},
	}
	for range 60 {
		old := gen(r.Intn(40))
		nw := append([]string(nil), old...)
		for range r.Intn(6) {
			switch i := r.Intn(len(nw) + 1); r.Intn(3) {
			case 0:
				nw = append(nw[:i], append([]string{"new " + words[r.Intn(len(words))]}, nw[i:]...)...)
			case 1:
				if i < len(nw) {
					nw = append(nw[:i], nw[i+1:]...)
				}
			case 2:
				if i < len(nw) {
					nw[i] = "changed"
				}
			}
		}
		j := func(ls []string) string {
			if len(ls) == 0 {
				return ""
			}
			return strings.Join(ls, "\n") + "\n"
		}
		cases = append(cases, [2]string{j(old), j(nw)})
	}
	for i, c := range cases {
		d := unified("a/f.go", "b/f.go", []byte(c[0]), []byte(c[1]))
		if c[0] == c[1] {
			if d != "" {
				t.Errorf("case %d: equal files give a diff:\n%s", i, d)
			}
			continue
		}
		f := filepath.Join(dir, "f.go")
		if err := os.WriteFile(f, []byte(c[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "apply", "-")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: git apply: %v\n%s\ndiff:\n%s", i, err, out, d)
		}
		got, _ := os.ReadFile(f)
		if !bytes.Equal(got, []byte(c[1])) {
			t.Fatalf("case %d: applied diff gives\n%q\nwant\n%q\ndiff:\n%s", i, got, c[1], d)
		}
	}
}
