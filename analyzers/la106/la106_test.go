package la106_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la106"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA106(t *testing.T) {
	analysistest.Run(t, testdata(t), la106.Analyzer, "la106/goredis", "la106/valkeygo", "la106/glide", "la106/redigo", "la106/radix")
}
