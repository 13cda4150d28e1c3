package la107_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la107"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA107(t *testing.T) {
	analysistest.Run(t, testdata(t), la107.Analyzer, "la107/goredis", "la107/redigo", "la107/valkeygo", "la107/glide")
}
