package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// Finding IDs. A finding's ID is what a client refers to ("LA103-3f9c is
// fixed"): its rule and four hex digits of the key the baseline and the
// comparison match it by (rule, file and source-line hash for code; rule,
// node and subject for servers). It is the same in every run where the
// finding's line is the same, wherever the line moved; a run compared
// with an earlier one (audit -since) keeps the earlier ID of every finding
// still there, even where its line was edited (CarryIDs). Two findings
// with one key (two identical lines) are told apart by ".2", ".3".

// idPattern is what Validate accepts as a finding's ID.
var idPattern = regexp.MustCompile(`^LA[0-9]{3}-[0-9a-f]{4}(\.[0-9]+)?$`)

// baseID is the ID a finding's key gives, before duplicates are told apart.
func baseID(f Finding) string {
	sum := sha256.Sum256([]byte(findingKey(f, false)))
	return string(f.Rule) + "-" + hex.EncodeToString(sum[:2])
}

// withIDs gives every finding without an ID one, in the findings' order,
// keeping those already set (carried from an earlier run, or read from
// JSON). It writes into fs.
func withIDs(fs []Finding) {
	taken := map[string]bool{}
	for _, f := range fs {
		if f.ID != "" {
			taken[f.ID] = true
		}
	}
	for i := range fs {
		if fs[i].ID != "" {
			continue
		}
		id := baseID(fs[i])
		for n := 2; taken[id]; n++ {
			id = fmt.Sprintf("%s.%d", baseID(fs[i]), n)
		}
		taken[id] = true
		fs[i].ID = id
	}
}

// CarryIDs gives each active finding of cur that is still there from old
// (paired as Compare pairs them) the ID it had in old, so a client's
// reference survives an edit of the finding's line. Findings that are new
// get their own ID when the run is rendered.
func CarryIDs(old, cur *Run) {
	olds := old.Active()
	withIDs(olds)
	var idx []int
	var curs []Finding
	for i, f := range cur.Findings {
		if f.Suppressed == nil {
			idx = append(idx, i)
			curs = append(curs, f)
		}
	}
	p := pair(olds, curs)
	for j, i := range p.pairOf {
		if i >= 0 {
			cur.Findings[idx[j]].ID = olds[i].ID
		}
	}
}

// checkIDs: every ID is well formed, of its finding's rule, and unique.
func checkIDs(fs []Finding) error {
	seen := map[string]bool{}
	for i, f := range fs {
		if f.ID == "" {
			continue
		}
		if !idPattern.MatchString(f.ID) || !strings.HasPrefix(f.ID, string(f.Rule)+"-") {
			return fmt.Errorf("findings[%d].id: %q is not an ID of rule %s (want %s-xxxx, four hex digits)", i, f.ID, f.Rule, f.Rule)
		}
		if seen[f.ID] {
			return fmt.Errorf("findings[%d].id: %q is used twice", i, f.ID)
		}
		seen[f.ID] = true
	}
	return nil
}
