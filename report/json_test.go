package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

// jsonOf writes r as the JSON saved-run format, as `-format json` does:
// with the IDs and risk every format shows.
func jsonOf(t *testing.T, r *report.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, r.Prepared()); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	return buf.Bytes()
}

func TestJSONGolden(t *testing.T) {
	fixture.Golden(t, "full.json", jsonOf(t, fixture.Full()))
	fixture.Golden(t, "vet.json", jsonOf(t, fixture.Vet()))
}

// TestBuiltRunsValidate: the runs built here are runs lockaudit could
// write: each passes Validate, and its JSON decodes back as `render` reads
// it.
func TestBuiltRunsValidate(t *testing.T) {
	for name, r := range map[string]*report.Run{"formatsRun": fixture.Full(), "vetRun": fixture.Vet()} {
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := report.DecodeRun(jsonOf(t, r)); err != nil {
			t.Errorf("%s as JSON: %v", name, err)
		}
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		r    *report.Run
		want string
	}{
		{report.New("vet", ""), "no findings"},
		{fixture.Vet(), "2 findings (1 error, 1 warning)"},
		{fixture.Full(), "4 findings (2 errors, 2 warnings), 2 suppressed; incomplete run: 3 errors (first: 127.0.0.1:7003: dial tcp 127.0.0.1:7003: connection refused)"},
		{&report.Run{Errors: []report.Error{{Where: "./x/...", Message: "pattern matched no packages\nsecond line"}}}, "no findings; incomplete run: 1 error (./x/...: pattern matched no packages)"},
		{&report.Run{AnalyzedPackages: []string{"m/d"}, UnanalyzedPackages: []string{"m/a", "m/b", "m/c"}, Errors: []report.Error{{Where: "m/a", Message: "a.go:6:2: m@v1: 403 Forbidden"}}}, "no findings; incomplete run: analysed 1 of 4 packages, 1 error (m/a: a.go:6:2: m@v1: 403 Forbidden)"},
	} {
		if got := report.Summary(tc.r); got != tc.want {
			t.Errorf("Summary = %q, want %q", got, tc.want)
		}
	}
}

func TestJSONRoundTrips(t *testing.T) {
	r := fixture.Full()
	data := jsonOf(t, r)
	var back report.Run
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again := jsonOf(t, &back)
	if !bytes.Equal(data, again) {
		t.Errorf("JSON does not round-trip:\n%s\n---\n%s", data, again)
	}
	if !bytes.Contains(jsonOf(t, report.New("vet", "x")), []byte(`"findings": []`)) {
		t.Errorf("an empty run must write findings as [], not null")
	}
}

// TestPlural: counts read as English.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files"} {
		if got := report.Plural(n, "file"); got != want {
			t.Errorf("Plural(%d, file) = %q, want %q", n, got, want)
		}
	}
	for word, want := range map[string]string{"primary": "2 primaries", "replica": "2 replicas", "key": "2 keys", "status": "2 statuses", "patch": "2 patches"} {
		if got := report.Plural(2, word); got != want {
			t.Errorf("Plural(2, %s) = %q, want %q", word, got, want)
		}
	}
}
