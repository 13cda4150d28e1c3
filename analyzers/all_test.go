package analyzers_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/directive"
	"github.com/lockaudit/lockaudit/rules"
)

// TestAllMatchesCatalog checks that All() has exactly one analyzer per code
// rule of the catalog, in ID order, each named after its rule and
// documented from the catalog. LA100 (bad directives) is reported by the
// directive layer, not by an analyzer.
func TestAllMatchesCatalog(t *testing.T) {
	all := analyzers.All()
	var want []rules.Rule
	for _, r := range rules.ByKind(rules.Code) {
		if r.ID != directive.RuleID {
			want = append(want, r)
		}
	}
	if len(all) != len(want) {
		var got []string
		for _, a := range all {
			got = append(got, a.Name)
		}
		t.Fatalf("All() has %d analyzers %v, the catalog %d code rules", len(all), got, len(want))
	}
	for i, r := range want {
		a := all[i]
		if a.Name != string(r.ID) {
			t.Errorf("All()[%d] is %s, want %s (ID order)", i, a.Name, r.ID)
			continue
		}
		if !strings.HasPrefix(a.Doc, r.Title) {
			t.Errorf("%s: Doc %q does not start with the catalog title %q", r.ID, a.Doc, r.Title)
		}
	}
}

// TestAnalyzersValidate runs go/analysis's own checks (names, requirements,
// fact types, no cycles) on the whole set.
func TestAnalyzersValidate(t *testing.T) {
	if err := analysis.Validate(analyzers.All()); err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzers.All() {
		if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
	}
}
