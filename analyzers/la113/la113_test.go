package la113_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la113"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA113(t *testing.T) {
	analysistest.Run(t, testdata(t), la113.Analyzer, "la113/goredis", "la113/redigo", "la113/valkeygo", "la113/glide")
}
