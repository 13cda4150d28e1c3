package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
)

// TestDiffAfterVetFix is issue 23's diff test: vet -fix applied to a copy
// of the bundled example, the runs before and after compared by lockaudit
// diff. Every finding still there is unchanged, never fixed plus new; the
// counts are a hand count of the example.
//
// The client's case is the second copy: Restock's token made non-unique,
// so LA107 sits on the SETNX line that -fix rewrites for LA106. Before
// findings were matched within their function, the still-open LA107 was
// listed as fixed and as new ("5 fixed" for 4).
func TestDiffAfterVetFix(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example's real modules")
	}
	// Hand count. -fix fixes LA101 (billing), LA103 and LA106 (inventory),
	// LA104 (shipping): 4 fixed. The DELIFEQ that replaces LA103's DEL has
	// its reply only error-checked: LA108 there is new. Every other
	// finding of the example stays: 10 (11 with the second LA107).
	cases := []struct {
		name                  string
		edit                  func(src string) string
		fixed, new, unchanged int
		unchangedHas          string
	}{
		{"the example", nil, 4, 1, 10, "LA107 inventory/inventory.go Reserve"},
		{"LA107 on the line LA106's fix rewrites", func(src string) string {
			return strings.Replace(src, "token, err := lock.NewToken()", "token, err := os.Hostname()", 1)
		}, 4, 1, 11, "LA107 inventory/inventory.go Restock"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyExample(t)
			if tc.edit != nil {
				p := filepath.Join(dir, "inventory", "inventory.go")
				src, _ := os.ReadFile(p)
				if edited := tc.edit(string(src)); edited != string(src) {
					os.WriteFile(p, []byte(edited), 0o644)
				} else {
					t.Fatal("the edit did not apply: the example changed")
				}
			}
			before, after := filepath.Join(t.TempDir(), "before.json"), filepath.Join(t.TempDir(), "after.json")
			vetTo(t, dir, before)
			if _, stderr, code := runCLI(t, "vet", "-C", dir, "-fix", "./..."); code != report.ExitFindings {
				t.Fatalf("vet -fix: exit %d\n%s", code, stderr)
			}
			vetTo(t, dir, after)
			stdout, stderr, code := runCLI(t, "diff", "-format", "json", before, after)
			if code != report.ExitFindings { // the new LA108 is a code warning
				t.Errorf("diff: exit %d, want 3 for the new LA108\n%s", code, stderr)
			}
			var c report.Comparison
			if err := json.Unmarshal([]byte(stdout), &c); err != nil {
				t.Fatalf("diff JSON: %v\n%s", err, stdout)
			}
			n := c.Counts()
			if n[report.ChangeFixed] != tc.fixed || n[report.ChangeNew] != tc.new || n[report.ChangeUnchanged] != tc.unchanged {
				t.Errorf("%d fixed, %d new, %d unchanged; the hand count is %d, %d, %d\n%s", n[report.ChangeFixed], n[report.ChangeNew], n[report.ChangeUnchanged], tc.fixed, tc.new, tc.unchanged, listChanges(c))
			}
			if l := listChanges(c); !strings.Contains(l, "unchanged "+tc.unchangedHas) || !strings.Contains(l, "new LA108 inventory/inventory.go Reserve") {
				t.Errorf("want unchanged %s and the new LA108 in Reserve:\n%s", tc.unchangedHas, l)
			}
			// A finding still there keeps the ID it had before, even where
			// -fix rewrote its line.
			ids := map[string][]string{}
			for _, f := range readJSONRun(t, before).Findings {
				k := string(f.Rule) + " " + f.Pos.File + " " + f.Func
				ids[k] = append(ids[k], f.ID)
			}
			for _, fc := range c.Findings {
				f := fc.Finding
				if was := ids[string(f.Rule)+" "+f.Pos.File+" "+f.Func]; fc.Change == report.ChangeUnchanged && (f.ID == "" || !slices.Contains(was, f.ID)) {
					t.Errorf("unchanged %s in %s: ID %q, was one of %q", f.Rule, f.Func, f.ID, was)
				}
			}
		})
	}
}

func vetTo(t *testing.T, dir, out string) {
	t.Helper()
	if _, stderr, code := runCLI(t, "vet", "-C", dir, "-o", out, "./..."); code != report.ExitFindings {
		t.Fatalf("vet -o %s: exit %d\n%s", out, code, stderr)
	}
}

func listChanges(c report.Comparison) string {
	var out []string
	for _, f := range c.Findings {
		where := f.Finding.Node
		if f.Finding.Pos != nil {
			where = f.Finding.Pos.File + " " + f.Finding.Func
		}
		out = append(out, f.Change+" "+string(f.Finding.Rule)+" "+where)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
