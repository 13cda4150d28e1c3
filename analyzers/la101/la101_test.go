package la101_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la101"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA101(t *testing.T) {
	analysistest.Run(t, testdata(t), la101.Analyzer, "la101/goredis", "la101/redigo", "la101/valkeygo", "la101/glide", "la101/radix", "la101/lualocals")
}
