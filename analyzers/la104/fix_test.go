package la104_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix/fixtest"
	"github.com/lockaudit/lockaudit/analyzers/la104"
)

// TestLA104Fix checks the lease fixes against the .golden files next to the
// fixtures, that nofix lines get none, and that the fixed code compiles.
func TestLA104Fix(t *testing.T) {
	fixtest.Run(t, testdata(t), la104.Analyzer, "la104/fix/goredis", "la104/fix/redigo", "la104/fix/valkeygo")
}
