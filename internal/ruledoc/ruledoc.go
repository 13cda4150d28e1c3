// Package ruledoc writes the rule documentation under docs/rules from the
// catalog (rules/catalog.yaml): one page per rule (docs/rules/LA103.md, the
// page rules.Rule.URL points at) and the rule table of docs/rules/README.md,
// which `lockaudit rules -format markdown` prints too. A code rule's page
// also lists its analyzer's options, taken from the analyzer's flags, so the
// page says what go vet accepts.
//
// The committed pages are generated; a test fails when one is stale.
package ruledoc

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
)

// Finder is a command that reports a rule's findings, and its page.
type Finder struct {
	Command string // "vet", "probe", "scan"
	Page    string // relative to docs/: "vet.md", "fleet-commands.md#lockaudit-scan"
}

// Finders returns the commands that report r's findings: the rule's own
// found_by command; for other node rules the probe, audit (which probes)
// and, for the rules a declared fleet can break (the catalog's declared),
// preflight; for code rules vet and the two commands that run its
// analysis, audit and preflight.
func Finders(r rules.Rule) []Finder {
	if cmd, ok := strings.CutPrefix(r.FoundBy, "lockaudit "); ok {
		return []Finder{{cmd, "fleet-commands.md#lockaudit-" + cmd}}
	}
	preflight := Finder{"preflight", "preflight.md"}
	if r.Kind == rules.Node {
		if r.Declared {
			return []Finder{{"probe", "probe.md"}, {"audit", "audit.md"}, preflight}
		}
		return []Finder{{"probe", "probe.md"}, {"audit", "audit.md"}}
	}
	return []Finder{{"vet", "vet.md"}, {"audit", "audit.md"}, preflight}
}

// Table is the rule table: ID, name, severity, the command that finds it
// and the title. link gives the target of each ID's link ("" for none).
func Table(list []rules.Rule, link func(rules.Rule) string) string {
	var b strings.Builder
	b.WriteString("| ID | name | severity | found by | title |\n|---|---|---|---|---|\n")
	for _, r := range list {
		id := string(r.ID)
		if l := link(r); l != "" {
			id = "[" + id + "](" + l + ")"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | `lockaudit %s` | %s |\n", id, r.Name, r.Severity, Finders(r)[0].Command, cell(r.Title))
	}
	return b.String()
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Option is an analyzer setting that changes what a code rule reports.
type Option struct {
	Flag    string // the analyzer flag: go vet takes it as -RULE.Flag
	Usage   string // the flag's help
	Key     string // the .lockaudit.yaml key that sets it ("" when none does)
	VetFlag string // the lockaudit vet flag that sets it ("" when none does)
}

// settingKeys maps analyzer options to the .lockaudit.yaml key and the
// lockaudit vet flag that set them (settings.Apply, settings.Targets).
var settingKeys = map[string][2]string{
	settings.OptTarget:      {"target", "-target"},
	settings.OptLockKeys:    {"lock_keys", ""},
	settings.OptFenceKeys:   {"fence_keys", ""},
	settings.OptFenceColumn: {"fence_columns", ""},
	settings.OptWriters:     {"writers", ""},
}

// Options returns the options of a rule's analyzer (its flags), sorted by
// name. A flag no config key sets has an empty Key.
func Options(a *analysis.Analyzer) []Option {
	var out []Option
	a.Flags.VisitAll(func(f *flag.Flag) {
		k := settingKeys[f.Name]
		out = append(out, Option{Flag: f.Name, Usage: f.Usage, Key: k[0], VetFlag: k[1]})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Flag < out[j].Flag })
	return out
}

// Header opens every generated page: it is not shown when rendered.
const Header = "<!-- Generated from rules/catalog.yaml by `go test ./internal/ruledoc -update`: edit the catalog, not this page. -->\n"

// Page is the rule's page: what it finds, why it matters, how to fix it,
// a bad and a good example, who reports it, its options and how to
// suppress it.
func Page(r rules.Rule, opts []Option) string {
	var b strings.Builder
	b.WriteString(Header)
	fmt.Fprintf(&b, "# %s %s\n\n**%s**\n\n", r.ID, r.Name, r.Title)
	var finders []string
	for _, f := range Finders(r) {
		finders = append(finders, fmt.Sprintf("[`lockaudit %s`](../%s)", f.Command, f.Page))
	}
	servers := "every version"
	if len(r.MinServers) > 0 {
		servers = strings.Join(r.MinServers, ", ")
	}
	b.WriteString("| severity | found by | servers concerned |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Severity, strings.Join(finders, ", "), servers)
	section := func(title, text string) {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n", title, strings.TrimRight(text, "\n"))
	}
	section("What it finds", r.What)
	section("Why it matters", r.Why)
	section("How to fix it", r.Fix)
	if defs := r.Definitions(); len(defs) > 0 {
		b.WriteString("\n## Relies on\n\n")
		for _, d := range defs {
			fmt.Fprintf(&b, "- [%s](%s)\n", d.Title, DefinitionFile(d))
		}
	}
	lang := ""
	if r.Kind == rules.Code {
		lang = "go"
	}
	fmt.Fprintf(&b, "\n## Example\n\nBad:\n\n```%s\n%s```\n\nGood:\n\n```%s\n%s```\n", lang, r.Bad, lang, r.Good)
	if len(opts) > 0 {
		b.WriteString("\n## Settings\n\n")
		for _, o := range opts {
			var where []string
			if o.Key != "" {
				where = append(where, fmt.Sprintf("`%s` in [`.lockaudit.yaml`](../config.md)", o.Key))
			}
			if o.VetFlag != "" {
				where = append(where, fmt.Sprintf("`%s` of `lockaudit vet`", o.VetFlag))
			}
			where = append(where, fmt.Sprintf("`-%s.%s` under [`go vet`](../vet.md#under-go-vet)", r.ID, o.Flag))
			fmt.Fprintf(&b, "- %s: %s.\n", strings.Join(where, ", "), strings.TrimSuffix(o.Usage, "."))
		}
	}
	if r.Kind == rules.Code {
		b.WriteString("\n## Turning it off\n\n")
		if r.ID != rules.LA100 {
			fmt.Fprintf(&b, "One finding, with the reason: `//lockaudit:ignore %s -- reason` at the end of its line or on\nthe line above. ", r.ID)
		}
		fmt.Fprintf(&b, "The whole rule: `%s: off` under `rules:` in `.lockaudit.yaml`, or\n`lockaudit vet -rules -%s`. See [suppressing a finding](../ci.md#suppressing-a-finding-with-a-reason).\n", r.ID, r.ID)
	}
	if r.Kind == rules.Node {
		b.WriteString("\n## Turning it off\n\n")
		fmt.Fprintf(&b, "`%s: off` under `rules:` in [`.lockaudit.yaml`](../config.md) hides its findings, and `%s: info`\nre-grades them; the verdicts stay as the evidence says, so an unsafe or unknown verdict still\nfails the run.\n", r.ID, r.ID)
	}
	fmt.Fprintf(&b, "\n---\n\n`lockaudit explain -v %s` prints this in a terminal (`lockaudit explain %s`, a ten-line summary). [All rules](README.md)\n", r.ID, r.ID)
	return b.String()
}

// DefinitionFile is the page of a catalog definition, next to the rule
// pages: lock-evidence.md.
func DefinitionFile(d rules.Definition) string { return d.Name + ".md" }

// DefinitionPage is the one page of a definition several rules rely on
// (lock evidence, advice on the -target list): its text, and the rules
// whose pages point at it.
func DefinitionPage(d rules.Definition, users []rules.Rule) string {
	var b strings.Builder
	b.WriteString(Header)
	fmt.Fprintf(&b, "# %s\n\n%s\n", d.Title, strings.TrimRight(d.Text, "\n"))
	var links []string
	for _, r := range users {
		links = append(links, fmt.Sprintf("[%s](%s.md)", r.ID, r.ID))
	}
	fmt.Fprintf(&b, "\nRules that rely on it: %s.\n\n---\n\n[All rules](README.md)\n", strings.Join(links, ", "))
	return b.String()
}

// Users returns the rules that rely on a definition, in ID order.
func Users(d rules.Definition) []rules.Rule {
	var out []rules.Rule
	for _, r := range rules.All() {
		for _, u := range r.Uses {
			if u == d.Name {
				out = append(out, r)
			}
		}
	}
	return out
}
