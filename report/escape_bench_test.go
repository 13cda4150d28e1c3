package report

import (
	"encoding/json"
	"io"
	"os"
	"testing"
)

// BenchmarkEscape measures what escaping adds to a text report: the
// escaped copy of a real audit run (report/testdata/audit-example.json)
// against rendering it. Compare the two ns/op.
func BenchmarkEscape(b *testing.B) {
	data, err := os.ReadFile("testdata/audit-example.json")
	if err != nil {
		b.Fatal(err)
	}
	var r Run
	if err := json.Unmarshal(data, &r); err != nil {
		b.Fatal(err)
	}
	b.Run("escaped-copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.escaped()
		}
	})
	b.Run("render-text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := Render(io.Discard, &r, "text"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
