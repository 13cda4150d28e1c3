package ruledoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/rules"
)

// update is the one -update flag of the golden files (internal/golden).
var update = golden.Update

// root is the repository root, where rules.DocsPath is relative to.
const root = "../.."

const (
	tableBegin = "<!-- rules-table:begin -->\n"
	tableEnd   = "<!-- rules-table:end -->"
)

func analyzerByRule() map[string]*analysis.Analyzer {
	m := map[string]*analysis.Analyzer{}
	for _, a := range analyzers.All() {
		m[a.Name] = a
	}
	return m
}

// TestPagesUpToDate fails when a page under docs/rules is not the one the
// catalog and the analyzers' options generate, when a page has no rule,
// or when the table of docs/rules/README.md is stale; -update rewrites
// them.
func TestPagesUpToDate(t *testing.T) {
	dir := filepath.Join(root, rules.DocsPath)
	byRule := analyzerByRule()
	want := map[string]string{}
	for _, r := range rules.All() {
		var opts []Option
		if a := byRule[string(r.ID)]; a != nil {
			opts = Options(a)
		}
		want[string(r.ID)+".md"] = Page(r, opts)
		for _, d := range r.Definitions() {
			want[DefinitionFile(d)] = DefinitionPage(d, Users(d))
		}
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "LA*.md"))
	for _, p := range pages {
		if _, ok := want[filepath.Base(p)]; ok {
			continue
		}
		if *update {
			os.Remove(p)
			continue
		}
		t.Errorf("%s documents no rule of the catalog (go test ./internal/ruledoc -update removes it)", p)
	}
	for name, page := range want {
		golden.Check(t, filepath.Join(dir, name), []byte(page))
	}

	index := filepath.Join(dir, "README.md")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	b, e := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	if b < 0 || e < b {
		t.Fatalf("%s lacks the %q ... %q markers", index, tableBegin, tableEnd)
	}
	b += len(tableBegin)
	table := Table(rules.All(), func(r rules.Rule) string { return string(r.ID) + ".md" })
	if text[b:e] == table {
		return
	}
	if *update {
		if err := os.WriteFile(index, []byte(text[:b]+table+text[e:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the rule table of %s is stale (go test ./internal/ruledoc -update rewrites it); want:\n%s", index, table)
}

// TestEveryOptionHasAKey: each analyzer option is one of the settings of
// .lockaudit.yaml, so its page can say where to set it. A new analyzer
// flag without a key fails here until settingKeys names it.
func TestEveryOptionHasAKey(t *testing.T) {
	n := 0
	for _, a := range analyzers.All() {
		for _, o := range Options(a) {
			n++
			if o.Key == "" {
				t.Errorf("%s: option -%s.%s has no .lockaudit.yaml key in settingKeys", a.Name, a.Name, o.Flag)
			}
		}
	}
	if n == 0 {
		t.Error("no analyzer has an option: the pages would list none")
	}
}

// TestURLsArePages: each rule's URL (SARIF helpUri, Analyzer.URL) names
// its page in this repository, and each analyzer carries its rule's URL.
func TestURLsArePages(t *testing.T) {
	for _, r := range rules.All() {
		rel, ok := strings.CutPrefix(r.URL(), rules.Home+"/blob/main/")
		if !ok || rel != rules.DocsPath+"/"+string(r.ID)+".md" {
			t.Errorf("%s: URL %s is not %s/blob/main/%s/%s.md", r.ID, r.URL(), rules.Home, rules.DocsPath, r.ID)
			continue
		}
		if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
			t.Errorf("%s: its URL names %s, which does not exist: %v", r.ID, rel, err)
		}
	}
	for _, a := range analyzers.All() {
		if want := rules.MustGet(rules.ID(a.Name)).URL(); a.URL != want {
			t.Errorf("analyzer %s: URL %q, want %q", a.Name, a.URL, want)
		}
	}
}

// TestPageContent: a page carries the catalog entry's parts and the
// options it is given, and a node rule's page offers no code directive.
func TestPageContent(t *testing.T) {
	r := rules.MustGet("LA103")
	page := Page(r, []Option{{Flag: "lock-key-pattern", Usage: "regular expression for lock-key text", Key: "lock_keys"}})
	for _, want := range []string{"# LA103 plain-del-release\n", "**" + r.Title + "**", strings.TrimSpace(r.Why), strings.TrimSpace(r.Bad),
		"`lock_keys` in [`.lockaudit.yaml`](../config.md), `-LA103.lock-key-pattern` under", "//lockaudit:ignore LA103 -- reason", "[`lockaudit vet`](../vet.md)"} {
		if !strings.Contains(page, want) {
			t.Errorf("LA103's page lacks %q:\n%s", want, page)
		}
	}
	node := Page(rules.MustGet("LA211"), nil)
	for _, bad := range []string{"//lockaudit:ignore", "## Settings", "```go"} {
		if strings.Contains(node, bad) {
			t.Errorf("LA211's page has %q:\n%s", bad, node)
		}
	}
	if !strings.Contains(node, "[`lockaudit scan`](../fleet-commands.md#lockaudit-scan)") {
		t.Errorf("LA211's page does not name lockaudit scan:\n%s", node)
	}
}

// TestDefinitionPages: lock evidence and the target advice are stated on
// one page each, which every rule relying on them links to.
func TestDefinitionPages(t *testing.T) {
	for _, name := range []string{"lock-evidence", "targets"} {
		d, ok := rules.LookupDefinition(name)
		if !ok {
			t.Fatalf("no definition %s", name)
		}
		users := Users(d)
		if len(users) == 0 {
			t.Fatalf("%s: no rule relies on it", name)
		}
		page := DefinitionPage(d, users)
		if !strings.Contains(page, "# "+d.Title+"\n") || !strings.Contains(page, strings.Fields(d.Text)[0]) {
			t.Errorf("%s's page lacks its title or text:\n%s", name, page)
		}
		for _, r := range users {
			if !strings.Contains(page, "["+string(r.ID)+"]("+string(r.ID)+".md)") {
				t.Errorf("%s's page does not link %s", name, r.ID)
			}
			if !strings.Contains(Page(r, nil), "- ["+d.Title+"]("+DefinitionFile(d)+")") {
				t.Errorf("%s's page does not link %s", r.ID, DefinitionFile(d))
			}
		}
	}
}
