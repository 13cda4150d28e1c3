package la103_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/la103"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA103(t *testing.T) {
	analysistest.Run(t, testdata(t), la103.Analyzer, "la103/goredis", "la103/redigo", "la103/valkeygo", "la103/glide", "la103/neg")
}

func TestLA103Pattern(t *testing.T) {
	defer flow.LockKeys.Reset()
	if err := la103.Analyzer.Flags.Set("lock-key-pattern", `^mutex:`); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), la103.Analyzer, "la103/pattern")
}
