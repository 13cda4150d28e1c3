package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
)

func TestRulesListsTheCatalog(t *testing.T) {
	stdout, _, code := runCLI(t, "rules")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	// border, header, border, one row per rule, border
	if len(lines) != len(rules.All())+4 {
		t.Errorf("want a row per rule (%d), got %d lines:\n%s", len(rules.All()), len(lines), stdout)
	}
	for _, r := range rules.All() {
		row := "| " + string(r.ID) + " | " + r.Name
		if !strings.Contains(stdout, row) || !strings.Contains(stdout, r.Title) {
			t.Errorf("rules lacks %s (%q, %q):\n%s", r.ID, row, r.Title, stdout)
		}
	}
	if !strings.Contains(lines[1], "| ID ") || !strings.Contains(lines[1], "| SEVERITY ") || !strings.Contains(lines[1], "| KIND ") || !strings.Contains(lines[1], "| TITLE ") {
		t.Errorf("header: %q", lines[1])
	}
}

func TestRulesKindAndJSON(t *testing.T) {
	stdout, _, code := runCLI(t, "rules", "-kind", "node", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var list []rules.Rule
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != len(rules.ByKind(rules.Node)) || len(list) == 0 {
		t.Fatalf("got %d node rules, want %d", len(list), len(rules.ByKind(rules.Node)))
	}
	for _, r := range list {
		if r.Kind != rules.Node || r.Doc() != rules.MustGet(r.ID).Doc() {
			t.Errorf("%s: wrong kind or doc", r.ID)
		}
	}
	for _, args := range [][]string{{"rules", "-kind", "probe"}, {"rules", "-format", "yaml"}, {"rules", "LA101"}} {
		if _, stderr, code := runCLI(t, args...); code != 2 || stderr == "" {
			t.Errorf("%q: exit %d (want 2), stderr %q", args, code, stderr)
		}
	}
}

func TestExplain(t *testing.T) {
	stdout, _, code := runCLI(t, "explain", "la104")
	if code != 0 || stdout != rules.MustGet("LA104").Brief() {
		t.Errorf("explain la104: exit %d, output:\n%s", code, stdout)
	}
	stdout, _, code = runCLI(t, "explain", "-v", "la104")
	if code != 0 || stdout != rules.MustGet("LA104").Doc() {
		t.Errorf("explain -v la104: exit %d, output:\n%s", code, stdout)
	}
	// Every rule's summary fits ten lines of 100 columns, and says where
	// the rest is (explain LA103 used to print 75 lines).
	for _, r := range rules.All() {
		stdout, _, _ := runCLI(t, "explain", string(r.ID))
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if len(lines) > rules.BriefLines || !strings.Contains(stdout, "lockaudit explain -v "+string(r.ID)) || !strings.Contains(stdout, "Fix: ") {
			t.Errorf("explain %s: %d lines (at most %d), or no fix or pointer:\n%s", r.ID, len(lines), rules.BriefLines, stdout)
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > rules.BriefWidth {
				t.Errorf("explain %s: a line of %d columns: %q", r.ID, n, l)
			}
		}
	}
	stdout, _, _ = runCLI(t, "explain", "LA103", "LA201")
	if !strings.HasPrefix(stdout, "LA103 plain-del-release") || !strings.Contains(stdout, "\nLA201 ") {
		t.Errorf("explain with two rules:\n%s", stdout)
	}
	for _, args := range [][]string{{"explain"}, {"explain", "LA999"}, {"explain", "LA103", "nope"}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("%q: exit %d (want 2), stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if _, stderr, _ := runCLI(t, "explain", "LA999"); !strings.Contains(stderr, `unknown rule "LA999"`) {
		t.Errorf("the error must name the rule: %q", stderr)
	}
}

// TestRulesMarkdown: -format markdown is the rule table of docs/rules, each
// ID linking its page.
func TestRulesMarkdown(t *testing.T) {
	stdout, _, code := runCLI(t, "rules", "-format", "markdown", "-kind", "node")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(rules.ByKind(rules.Node))+2 || !strings.HasPrefix(lines[0], "| ID | name |") {
		t.Fatalf("want a header and a row per node rule:\n%s", stdout)
	}
	r := rules.MustGet("LA201")
	if want := "| [LA201](" + r.URL() + ") | `release-unavailable` | error | `lockaudit probe` |"; !strings.HasPrefix(lines[2], want) {
		t.Errorf("row %q, want it to start %q", lines[2], want)
	}
}
