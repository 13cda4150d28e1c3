package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
)

// fixtures are saved runs under testdata/, hand-built to look like real
// runs: an unsafe audit of a Sentinel fleet, a safe audit, a probe of a
// cluster with an unreachable node, and a vet run with no servers; and one
// real run, audit-example: `lockaudit audit` of the bundled example against
// a live Valkey 9.1 primary with a promotable 8.1 replica (saved by
// cmd/lockaudit's TestAuditFormatsAndRender -update, ports made stable).
var fixtures = []string{"audit-unsafe", "audit-safe", "probe-cluster", "vet-only", "audit-example"}

// loadRun reads a fixture strictly, so a fixture that drifts from the model
// fails here rather than rendering half-empty.
func loadRun(t *testing.T, name string) *report.Run {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r report.Run
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return &r
}

// goldenDoc compares a long document with its golden file and reports the
// first differing line, not the whole document.
func goldenDoc(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./report -update` to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("%s differs from the golden file at line %d (run `go test ./report -update` and review the diff):\n got: %q\nwant: %q", path, i+1, gl, wl)
			return
		}
	}
}
