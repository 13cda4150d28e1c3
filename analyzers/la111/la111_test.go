package la111_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la111"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA111(t *testing.T) {
	analysistest.Run(t, testdata(t), la111.Analyzer, "la111/goredis", "la111/redigo", "la111/valkeygo", "la111/libs")
}
