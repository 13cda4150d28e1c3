package la105_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la105"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA105(t *testing.T) {
	analysistest.Run(t, testdata(t), la105.Analyzer, "la105/goredis", "la105/redigo", "la105/valkeygo", "la105/glide", "la105/radix")
}
