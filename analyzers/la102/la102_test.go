package la102_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la102"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA102(t *testing.T) {
	analysistest.Run(t, testdata(t), la102.Analyzer, "la102/redsync", "la102/redislock", "la102/valkeylock", "la102/rueidislock")
}
