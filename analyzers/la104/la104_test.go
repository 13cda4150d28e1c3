package la104_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la104"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA104(t *testing.T) {
	analysistest.Run(t, testdata(t), la104.Analyzer, "la104/goredis", "la104/valkeygo", "la104/glide", "la104/redigo")
}
