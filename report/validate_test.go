package report_test

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

// TestSavedRunsValidate: the runs the tests keep as fixture.Names — saved from
// real audits and probes — pass Validate, so its sets are the values the
// producers write.
func TestSavedRunsValidate(t *testing.T) {
	for _, name := range []string{"audit-example", "audit-safe", "audit-unsafe", "vet-only", "probe-cluster", "vet"} {
		if err := fixture.Load(t, name).Validate(); err != nil {
			t.Errorf("%s.json: %v", name, err)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	r := fixture.Vet()
	r.Findings[0].Pos.Col = -2
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "findings[0].pos.col: -2 is not a column") {
		t.Errorf("Validate: %v", err)
	}
}
