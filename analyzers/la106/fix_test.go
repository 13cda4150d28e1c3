package la106_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la106"
)

// TestLA106Fix checks SET NX/SETNX + EXPIRE -> SET NX EX/PX against the
// .golden files, that nofix lines get none, and that the result compiles.
func TestLA106Fix(t *testing.T) {
	analyzertest.RunFixes(t, la106.Analyzer, nil, "la106/fix/goredis", "la106/fix/redigo", "la106/fix/valkeygo")
}
