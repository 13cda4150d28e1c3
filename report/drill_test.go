package report

import (
	"os"
	"strings"
	"testing"
)

// realDrill is a record lockaudit drill wrote (all six settings, on real
// servers): testdata/drill.json.
func realDrill(t *testing.T) *Run {
	t.Helper()
	data, err := os.ReadFile("testdata/drill.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeRun(data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDrillValidate: values outside their sets and an outcome that
// contradicts itself are refused.
func TestDrillValidate(t *testing.T) {
	for _, tc := range []struct {
		edit func(*Drill)
		want string
	}{
		{func(d *Drill) { d.Variants[0].Setting = "fast" }, `setting: "fast"`},
		{func(d *Drill) { d.Variants[0].Events[0].Actor = "C" }, `actor: "C"`},
		{func(d *Drill) { d.Variants[0].Events[0].Step = "hold" }, "a command or a step"},
		{func(d *Drill) { d.Variants[0].Outcome.AWrite = "maybe" }, `a_write: "maybe"`},
		{func(d *Drill) { d.Variants[0].Outcome.BAcquired = false }, "A and B both"},
	} {
		r := realDrill(t)
		if err := r.Validate(); err != nil {
			t.Fatalf("the real record does not validate: %v", err)
		}
		tc.edit(r.Drill)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}
