package la110_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/la110"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLA110(t *testing.T) {
	analysistest.Run(t, testdata(t), la110.Analyzer, "la110/goredis", "la110/redigo", "la110/valkeygo", "la110/glide", "la110/libs")
}

func TestLA110Writers(t *testing.T) {
	defer flow.Writers.Reset()
	if err := la110.Analyzer.Flags.Set("writers", "la110/writers.SaveInvoice,(*la110/writers.Store).Put"); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata(t), la110.Analyzer, "la110/writers")
}
