package rules

import (
	"fmt"
	"path"
	"strings"
)

// Select resolves a rule selection such as "LA101,LA103", "-LA110",
// "all,-LA2*", "LA1*" or "plain-del-release,-unfenced-write" against the
// catalog: each item is a rule ID, a rule name, or a glob over either. A
// list that starts with an exclusion starts from every rule. Unknown rules
// (and patterns that match no rule) are errors, so a typo never silently
// disables a check.
func Select(spec string) (map[string]bool, error) {
	out := map[string]bool{}
	items := strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' })
	if len(items) == 0 || strings.HasPrefix(items[0], "-") {
		for _, r := range catalog {
			out[string(r.ID)] = true
		}
	}
	for _, it := range items {
		neg := strings.HasPrefix(it, "-")
		pat := strings.ToUpper(strings.TrimPrefix(strings.TrimPrefix(it, "-"), "+"))
		if pat == "ALL" || pat == "*" {
			pat = "*"
		}
		matched := false
		for _, r := range catalog {
			ok, err := path.Match(pat, string(r.ID))
			if err == nil && !ok {
				ok, err = path.Match(pat, strings.ToUpper(r.Name))
			}
			if err != nil {
				return nil, fmt.Errorf("bad rule pattern %q: %v", it, err)
			} else if ok {
				matched = true
				if neg {
					delete(out, string(r.ID))
				} else {
					out[string(r.ID)] = true
				}
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown rule %q (run `lockaudit rules` for the list)", it)
		}
	}
	return out, nil
}
