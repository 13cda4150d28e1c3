package sarifcheck

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestValidateRejectsInvalidSARIF(t *testing.T) {
	for name, doc := range map[string]string{
		"no tool":       `{"version": "2.1.0", "runs": [{"results": []}]}`,
		"wrong version": `{"version": "2.0.0", "runs": []}`,
		"bad level":     `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
		"not json":      `{`,
	} {
		if err := Validate([]byte(doc)); err == nil {
			t.Errorf("%s: accepted %s", name, doc)
		}
	}
	if err := Validate([]byte(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}]}`)); err != nil {
		t.Errorf("minimal valid SARIF rejected: %v", err)
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

func TestMultitoolReportsGitHubErrors(t *testing.T) {
	if os.Getenv(EnvMultitool) == "" {
		t.Skipf("%s is not set", EnvMultitool)
	}
	// No $schema, no rules, a result without locations: GH1013, GH1018, GH1015.
	rec := &recorder{TB: t}
	Multitool(rec, []byte(`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "A1", "message": {"text": "m"}}]}]}`))
	all := strings.Join(rec.errs, "\n")
	for _, want := range []string{"GH1013", "GH1018", "GH1015"} {
		if !strings.Contains(all, want) {
			t.Errorf("Multitool did not report %s; it reported:\n%s", want, all)
		}
	}
}
