package la109_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la109"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA109(t *testing.T) {
	analysistest.Run(t, testdata(t), la109.Analyzer, "la109/goredis", "la109/redigo", "la109/valkeygo", "la109/glide")
}
