package analyzers

import (
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// Which rules a run uses, and at which severity: the config file's rules
// key and the -rules flag. (The analyzers' options are analyzers/settings'.)

// Select returns the code rules to run (LA100, the directive rule,
// included): every code rule, minus those the file turns off, then the
// -rules spec on top. A spec that starts with a rule or glob ("LA101,LA103",
// "LA1*") is the whole selection, whatever the file says; a spec that starts
// with an exclusion ("-LA110", "-LA110,LA111") edits the file's selection,
// item by item. So the flag always wins over the file. LA100 stays on
// unless the file or the spec turns it off by name ("-LA100"): it judges
// the directives of whichever rules run.
func Select(f *config.File, spec string) (map[string]bool, error) {
	sel := map[string]bool{}
	for _, r := range rules.ByKind(rules.Code) {
		sel[string(r.ID)] = true
	}
	if f != nil {
		off, _, _ := f.Selection()
		for _, id := range off {
			delete(sel, id)
		}
	}
	items := strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' })
	if len(items) > 0 && !strings.HasPrefix(items[0], "-") {
		// LA100 judges the directives themselves, whichever rules run: a
		// list of rules keeps it unless it is turned off by name.
		sel = map[string]bool{string(directive.RuleID): sel[string(directive.RuleID)]}
	}
	for _, it := range items {
		neg := strings.HasPrefix(it, "-")
		// One item alone, made positive, is exactly the rules it names.
		matched, err := rules.Select(strings.TrimPrefix(strings.TrimPrefix(it, "-"), "+"))
		if err != nil {
			return nil, err
		}
		for id := range matched {
			if r, _ := rules.Lookup(id); r.Kind != rules.Code {
				continue
			}
			if neg {
				delete(sel, id)
			} else {
				sel[id] = true
			}
		}
	}
	return sel, nil
}

// Selected returns the rule analyzers in sel, in ID order.
func Selected(sel map[string]bool) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range All() {
		if sel[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

// IDs returns the selection's IDs, sorted.
func IDs(sel map[string]bool) []string {
	var out []string
	for id, on := range sel {
		if on {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}
