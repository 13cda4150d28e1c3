package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/sarifcheck"
)

// TestSavedRunsValidate: the runs the tests keep as fixtures — saved from
// real audits and probes — pass Validate, so its sets are the values the
// producers write.
func TestSavedRunsValidate(t *testing.T) {
	for _, name := range []string{"audit-example", "audit-safe", "audit-unsafe", "vet-only", "probe-cluster", "vet"} {
		if err := loadRun(t, name).Validate(); err != nil {
			t.Errorf("%s.json: %v", name, err)
		}
	}
}

// TestSARIFPositionsAlwaysValid: a run holding positions SARIF cannot
// express (a hand-edited run rendered in-process; render refuses such a
// file) still gives a schema-valid log: the region is left out, not
// written with startLine -1.
func TestSARIFPositionsAlwaysValid(t *testing.T) {
	for _, pos := range []report.Position{{File: "a.go", Line: -1, Col: 3}, {File: "a.go", Line: 0, Col: 0}, {File: "a.go", Line: 4, Col: -7}} {
		r := vetRun()
		r.Findings[0].Pos = &pos
		out := render(t, r, "sarif")
		if err := sarifcheck.Validate(out); err != nil {
			t.Errorf("position %+v: %v", pos, err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						Physical struct {
							Region *struct {
								StartLine   int `json:"startLine"`
								StartColumn int `json:"startColumn"`
							} `json:"region"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil {
			t.Fatal(err)
		}
		reg := log.Runs[0].Results[0].Locations[0].Physical.Region
		switch {
		case pos.Line < 1 && reg != nil:
			t.Errorf("position %+v: region %+v written", pos, reg)
		case pos.Line >= 1 && (reg == nil || reg.StartLine != pos.Line || reg.StartColumn != 0):
			t.Errorf("position %+v: region %+v, want line %d without a column", pos, reg, pos.Line)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	r := vetRun()
	r.Findings[0].Pos.Col = -2
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "findings[0].pos.col: -2 is not a column") {
		t.Errorf("Validate: %v", err)
	}
}
