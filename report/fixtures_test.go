package report_test

import (
	"os"
	"testing"

	"github.com/lockaudit/lockaudit/internal/golden"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
)

// TestFixturesJudged: the verdict of each hand-written fixture is the one
// the real join gives its nodes and uses, worded as every run words it
// (`go test ./report -update` rewrites the fixture with it).
func TestFixturesJudged(t *testing.T) {
	for _, name := range fixture.Hand {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(fixture.Path(name))
			if err != nil {
				t.Fatal(err)
			}
			r, err := report.DecodeRun(data)
			if err != nil && !*golden.Update {
				t.Fatalf("%s.json: %v", name, err)
			}
			if r == nil { // -update: judge what the file holds
				if r, err = fixture.DecodeLoose(data); err != nil {
					t.Fatal(err)
				}
			}
			if r.Verdict != nil {
				r.Verdict = fixture.Judge(r)
			}
			golden.Check(t, fixture.Path(name), jsonOf(t, r))
		})
	}
}
