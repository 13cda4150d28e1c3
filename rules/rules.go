// Package rules holds lockaudit's rule catalog as data (catalog.yaml) and the
// server-version table that every rule, the probe and preflight share.
//
// Everything that prints a rule's text reads it from here, so the rule pages
// under docs/rules, `lockaudit explain`, diagnostics and SARIF metadata
// never disagree.
package rules

import (
	"fmt"
	"strings"
)

// Kind says where a rule finds its problem.
type Kind string

const (
	Code Kind = "code" // in Go source, by an analyzer
	Node Kind = "node" // on a live (or declared) server, by the probe
)

// ID is a rule's identifier, "LA103". Code names a rule by the constant
// the catalog generates for it (rules.LA103, in catalog_data.go) rather
// than by a string, so a typo'd rule ID is a compile error and the
// catalog is the only place rule IDs come from (a string literal would
// still compile, as an untyped constant: TestRuleIDsAreConstants fails on
// one). Text from outside the program (flags, config, directives) becomes
// an ID through Lookup, which knows the catalog and rule names.
type ID string

// Rule is one catalog entry.
type Rule struct {
	ID         ID       `yaml:"id" json:"id"`
	Name       string   `yaml:"name" json:"name"`
	Kind       Kind     `yaml:"kind" json:"kind"`
	Severity   Severity `yaml:"severity" json:"severity"`
	Title      string   `yaml:"title" json:"title"`
	What       string   `yaml:"what" json:"what"`
	Why        string   `yaml:"why" json:"why"`
	Fix        string   `yaml:"fix" json:"fix"`
	Bad        string   `yaml:"bad" json:"bad"`
	Good       string   `yaml:"good" json:"good"`
	MinServers []string `yaml:"min_servers" json:"min_servers,omitempty"`
	// FoundBy names the command that finds the rule's problem when it is
	// not the default of its kind (vet for code, the probe for node rules).
	FoundBy string `yaml:"found_by" json:"found_by,omitempty"`
	// Uses names the catalog's definitions the rule relies on (Definition);
	// its documentation includes them.
	Uses []string `yaml:"uses" json:"uses,omitempty"`

	// What else is known about a node rule, read where it is needed (the
	// JSON form of the catalog leaves it out):
	//
	// Verdict names the verdict path (native_release, native_extend, lua)
	// that the rule's error findings make unsafe (Rule.Path): a run with
	// such a finding and another verdict on that path contradicts itself.
	Verdict string `yaml:"verdict" json:"-"`
	// Declared: the rule depends only on what an inventory or -target
	// declares (versions, Lua, the flavor), so a declared fleet can break
	// it and preflight reports it too.
	Declared bool `yaml:"declared" json:"-"`
	// Recommends are the settings a configuration rule asks for, in the
	// order to set them: the remediation plan's configuration step changes
	// each one that differs on a node with the rule's finding.
	Recommends []Recommendation `yaml:"recommends" json:"-"`
}

// Recommendation is one setting a node rule asks for, what it costs and
// when not to use it (the plan states both beside the command).
type Recommendation struct {
	Setting string `yaml:"setting"`
	Value   string `yaml:"value"`
	Cost    string `yaml:"cost"`
	NotWhen string `yaml:"not_when"`
}

// Path is the verdict path the rule's error findings make unsafe; false
// for a rule that judges no path.
func (r Rule) Path() (Path, bool) {
	p, err := ParsePath(r.Verdict)
	return p, r.Verdict != "" && err == nil
}

// Definition is a term several rules rely on, stated once in the catalog
// (lock evidence, advice on the -target list).
type Definition struct {
	Name  string `yaml:"name" json:"name"`
	Title string `yaml:"title" json:"title"`
	Text  string `yaml:"text" json:"text"`
}

// Definitions returns the definitions a rule uses, in its order.
func (r Rule) Definitions() []Definition {
	var out []Definition
	for _, name := range r.Uses {
		if d, ok := LookupDefinition(name); ok {
			out = append(out, d)
		}
	}
	return out
}

// LookupDefinition finds a definition by name ("lock-evidence").
func LookupDefinition(name string) (Definition, bool) {
	for _, d := range definitions {
		if d.Name == name {
			return d, true
		}
	}
	return Definition{}, false
}

// Doc is the rule's full documentation as plain text: what, why, how to fix,
// and a bad and a good example.
func (r Rule) Doc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n\n", r.ID, r.Name, r.Title)
	fmt.Fprintf(&b, "Severity: %s\n", r.Severity)
	if len(r.MinServers) > 0 {
		fmt.Fprintf(&b, "Concerns servers: %s\n", strings.Join(r.MinServers, ", "))
	}
	section := func(title, text string) {
		fmt.Fprintf(&b, "\n%s\n", title)
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	section("What:", r.What)
	section("Why:", r.Why)
	section("How to fix:", r.Fix)
	section("Bad:", r.Bad)
	section("Good:", r.Good)
	for _, d := range r.Definitions() {
		section(d.Title+":", d.Text)
	}
	return b.String()
}

// Brief is what lockaudit explain prints first: at most BriefLines lines
// of at most BriefWidth columns — the rule and its severity, why it
// matters and the fix (each cut at two lines), the first line of the bad
// and the good example, and where the rest is (Doc, lockaudit explain -v).
func (r Rule) Brief() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s): %s\n\n", r.ID, r.Name, r.Severity, r.Title)
	for _, part := range []struct{ head, text string }{{"Why: ", r.Why}, {"Fix: ", r.Fix}} {
		b.WriteString(wrapCut(part.head+firstSentence(part.text), BriefWidth, 2))
	}
	for _, ex := range []struct{ head, text string }{{"Bad:  ", r.Bad}, {"Good: ", r.Good}} {
		lines := strings.Split(strings.TrimSpace(ex.text), "\n")
		line := ex.head + strings.TrimSpace(lines[0])
		if len(lines) > 1 {
			line += " …"
		}
		b.WriteString(cutRunes(line, BriefWidth) + "\n")
	}
	fmt.Fprintf(&b, "\nMore: lockaudit explain -v %s (or %s/%s.md)\n", r.ID, DocsPath, r.ID)
	return b.String()
}

// The bounds of Brief.
const (
	BriefLines = 10
	BriefWidth = 100
)

// firstSentence is text's first sentence on one line (up to ". ").
func firstSentence(text string) string {
	s := oneLine(text)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// wrapCut wraps s at width and keeps at most n lines, ending a cut one
// with "…".
func wrapCut(s string, width, n int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > width {
			lines = append(lines, line)
			line = "     " // under the heading's text
		}
		if strings.TrimSpace(line) != "" {
			line += " "
		}
		line += w
	}
	lines = append(lines, line)
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = cutRunes(lines[n-1]+" …", width)
	}
	return strings.Join(lines, "\n") + "\n"
}

// cutRunes shortens s to width runes, ending with "…" when it cut.
func cutRunes(s string, width int) string {
	r := []rune(s)
	if len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// Markdown is the rule's documentation as Markdown (SARIF help, HTML and
// Markdown reports).
func (r Rule) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s %s** (%s): %s\n\n", r.ID, r.Name, r.Severity, r.Title)
	fmt.Fprintf(&b, "%s\n**Why:** %s\n**Fix:** %s\n", oneLine(r.What), oneLine(r.Why), oneLine(r.Fix))
	fmt.Fprintf(&b, "\nBad:\n\n```\n%s```\n\nGood:\n\n```\n%s```\n", r.Bad, r.Good)
	for _, d := range r.Definitions() {
		fmt.Fprintf(&b, "\n**%s:** %s\n", d.Title, oneLine(d.Text))
	}
	return b.String()
}

// Home is the project's home page (SARIF informationUri, reports).
const Home = "https://github.com/lockaudit/lockaudit"

// DocsPath is the folder, relative to the repository root, that holds one
// page per rule, named ID.md (docs/rules/LA103.md).
const DocsPath = "docs/rules"

// URL is the rule's own documentation page (SARIF helpUri, Analyzer.URL).
func (r Rule) URL() string { return Home + "/blob/main/" + DocsPath + "/" + string(r.ID) + ".md" }

// Summary is What on one line (SARIF fullDescription, tables).
func (r Rule) Summary() string { return oneLine(r.What) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// The catalog's tables (catalog, definitions, commands, releases) are Go data in
// catalog_data.go, generated from catalog.yaml by `go test ./rules -update`
// (a test fails while the two disagree): a command starts without parsing
// YAML.

// All returns every rule, sorted by ID.
func All() []Rule { return append([]Rule(nil), catalog...) }

// ByKind returns the rules of one kind, sorted by ID.
func ByKind(k Kind) []Rule {
	var out []Rule
	for _, r := range catalog {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// Lookup finds a rule by text from outside the program: its ID (LA103)
// or name (plain-del-release), case-insensitively; the Rule's ID is the
// canonical one to store.
func Lookup(idOrName string) (Rule, bool) {
	key := strings.TrimSpace(idOrName)
	for _, r := range catalog {
		if strings.EqualFold(string(r.ID), key) || (r.Name != "" && strings.EqualFold(r.Name, key)) {
			return r, true
		}
	}
	return Rule{}, false
}

// Get finds the rule with an ID already held as one (a finding's rule, a
// generated constant); ok is false for an ID the catalog does not have,
// such as one read back from another version's report.
func Get(id ID) (Rule, bool) {
	for _, r := range catalog {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// MustGet returns the rule with the given ID and panics when it is not in
// the catalog; use it only with the generated constants (rules.LA103).
func MustGet(id ID) Rule {
	r, ok := Get(id)
	if !ok {
		panic("rules: no rule " + string(id))
	}
	return r
}
