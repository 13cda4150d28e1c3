package render_test

import (
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/internal/fixture"
	"github.com/lockaudit/lockaudit/report/render"
)

// BenchmarkEscape measures what escaping adds to a text report: the
// escaped copy of a real audit run (cmd/lockaudit/testdata/audit-example.json)
// against rendering it. Compare the two ns/op.
func BenchmarkEscape(b *testing.B) {
	data, err := os.ReadFile(fixture.Path("audit-example"))
	if err != nil {
		b.Fatal(err)
	}
	var r report.Run
	if err := json.Unmarshal(data, &r); err != nil {
		b.Fatal(err)
	}
	b.Run("escaped-copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Escaped()
		}
	})
	b.Run("render-text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := render.Render(io.Discard, &r, "text"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
