package analyzers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/la107"
	"github.com/lockaudit/lockaudit/analyzers/la108"
	"github.com/lockaudit/lockaudit/analyzers/la109"
	"github.com/lockaudit/lockaudit/analyzers/la110"
	"github.com/lockaudit/lockaudit/analyzers/la111"
	"github.com/lockaudit/lockaudit/analyzers/la113"
	"github.com/lockaudit/lockaudit/analyzers/la114"
	"github.com/lockaudit/lockaudit/analyzers/la115"
)

// TestNativePatternIsClean runs the rules built on the shared layers over the native lock
// pattern done right (crypto/rand token, SET NX PX and INCR in one MULTI
// with a shared hash tag, WAIT checked, SET IFEQ PX and DELIFEQ replies
// examined, the fence written and checked with <) on four clients, plus
// cache, rate-limit and idempotency code: any finding fails the test.
func TestNativePatternIsClean(t *testing.T) {
	for _, a := range []*analysis.Analyzer{la103.Analyzer, la107.Analyzer, la108.Analyzer, la109.Analyzer, la110.Analyzer, la111.Analyzer, la113.Analyzer, la114.Analyzer, la115.Analyzer} {
		analyzertest.Run(t, a, nil, "flowgood/goredis", "flowgood/valkeygo", "flowgood/redigo", "flowgood/glide")
	}
}
