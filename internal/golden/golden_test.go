package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }
func (r *recorder) Fatalf(f string, a ...any) { r.errs = append(r.errs, f) }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	os.WriteFile(path, []byte("a\nb\nc\n"), 0o644)
	rec := &recorder{TB: t}
	Check(rec, path, []byte("a\nb\nc\n"))
	if len(rec.errs) != 0 {
		t.Errorf("equal output failed: %v", rec.errs)
	}
	Check(rec, path, []byte("a\nB\nc\n"))
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "differs from the golden file at line") {
		t.Errorf("a difference passed: %v", rec.errs)
	}
	rec.errs = nil
	Check(rec, filepath.Join(t.TempDir(), "missing.golden"), []byte("x"))
	if len(rec.errs) != 1 {
		t.Errorf("a missing golden file passed: %v", rec.errs)
	}
}

func TestFirstDiff(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		line      int
	}{{"a\nb", "a\nb", 0}, {"a\nb", "a\nc", 2}, {"a", "a\nb", 2}, {"x", "y", 1}} {
		if line, _, _ := FirstDiff(tc.got, tc.want); line != tc.line {
			t.Errorf("FirstDiff(%q, %q) = %d, want %d", tc.got, tc.want, line, tc.line)
		}
	}
}
