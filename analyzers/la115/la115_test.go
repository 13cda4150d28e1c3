package la115_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la115"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA115(t *testing.T) {
	analysistest.Run(t, testdata(t), la115.Analyzer, "la115/goredis", "la115/redigo", "la115/valkeygo", "la115/glide", "la115/radix")
}
