// Package golden compares a test's output with a golden file, for every
// package whose tests keep expected output under testdata/: one helper and
// one -update flag, so goldens are written and reviewed the same way
// everywhere. Only tests import it.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Update, set by `go test -update`, rewrites the golden files instead of
// comparing (review the diff before committing it).
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/ (review the diff)")

// Check compares got with the golden file at path. A missing file or a
// difference fails t, naming the first line that differs; with -update it
// writes got instead (creating the folder).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test -update` to create it)", err)
		return // a recording TB does not stop here
	}
	if !bytes.Equal(got, want) {
		line, g, w := FirstDiff(string(got), string(want))
		t.Errorf("%s differs from the golden file at line %d (run `go test -update` and review the diff):\n got: %q\nwant: %q", path, line, g, w)
	}
}

// FirstDiff returns the first line (1-based) where got and want differ,
// and both lines there ("" past the end); 0 when they are equal.
func FirstDiff(got, want string) (line int, g, w string) {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		g, w = "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return i + 1, g, w
		}
	}
	return 0, "", ""
}
