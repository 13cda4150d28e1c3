package la108_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la108"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA108(t *testing.T) {
	analysistest.Run(t, testdata(t), la108.Analyzer, "la108/goredis", "la108/redigo", "la108/valkeygo", "la108/glide", "la108/radix", "la108/libs")
}
