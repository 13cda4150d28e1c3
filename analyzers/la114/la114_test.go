package la114_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/la114"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA114(t *testing.T) {
	analysistest.Run(t, testdata(t), la114.Analyzer, "la114/goredis", "la114/redigo", "la114/valkeygo", "la114/glide")
}

func TestLA114Pattern(t *testing.T) {
	defer flow.LockKeys.Reset()
	if err := la114.Analyzer.Flags.Set("lock-key-pattern", `^mutex:`); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), la114.Analyzer, "la114/pattern")
}
