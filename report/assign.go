package report

import (
	"fmt"
	"regexp"
	"strings"
)

// Assignment gives the findings it matches an owner and an effort, as the
// consultant fills them in (the config file's report.assign). Match is a
// finding's ID (LA103-3f9c), a rule ID (LA103), or a file or folder of the
// code (billing/, billing/billing.go); the most precise match wins: an
// ID, then a rule, then the longest path.
type Assignment struct {
	Match  string `json:"match"`
	Owner  string `json:"owner,omitempty"`
	Effort string `json:"effort,omitempty"`
}

var rulePattern = regexp.MustCompile(`^LA[0-9]{3}$`)

// matchRank is how precisely a matches f: 0 not at all, then higher is
// more precise.
func (a Assignment) matchRank(f Finding) int {
	switch {
	case a.Match == f.ID:
		return 1 << 20
	case a.Match == string(f.Rule):
		return 1 << 19
	case f.Pos != nil && !rulePattern.MatchString(a.Match) && !idPattern.MatchString(a.Match) &&
		(f.Pos.File == a.Match || strings.HasPrefix(f.Pos.File, strings.TrimSuffix(a.Match, "/")+"/")):
		return len(a.Match)
	}
	return 0
}

// assigned is the owner and effort of a finding: each from the most
// precise assignment that sets it.
func assigned(en *Engagement, f Finding) (owner, effort string) {
	if en == nil {
		return "", ""
	}
	ownerRank, effortRank := 0, 0
	for _, a := range en.Assign {
		n := a.matchRank(f)
		if n > ownerRank && a.Owner != "" {
			owner, ownerRank = a.Owner, n
		}
		if n > effortRank && a.Effort != "" {
			effort, effortRank = a.Effort, n
		}
	}
	return owner, effort
}

// CheckAssignment says what is wrong with an assignment render would
// show: no match, or neither an owner nor an effort. (The config file
// checks more, with its lines: rules/config.)
func CheckAssignment(a Assignment) error {
	switch {
	case strings.TrimSpace(a.Match) == "":
		return fmt.Errorf("match: missing")
	case a.Owner == "" && a.Effort == "":
		return fmt.Errorf("match %s: gives neither an owner nor an effort", a.Match)
	}
	return nil
}
