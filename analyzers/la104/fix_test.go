package la104_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la104"
)

// TestLA104Fix checks the lease fixes against the .golden files next to the
// fixtures, that nofix lines get none, and that the fixed code compiles.
func TestLA104Fix(t *testing.T) {
	analyzertest.RunFixes(t, la104.Analyzer, nil, "la104/fix/goredis", "la104/fix/redigo", "la104/fix/valkeygo")
}
