package la107_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/internal/origin"
	"github.com/lockaudit/lockaudit/analyzers/la107"
)

func TestLA107(t *testing.T) {
	analyzertest.Run(t, la107.Analyzer, nil, "la107/goredis", "la107/redigo", "la107/valkeygo", "la107/glide", "la107/evidence", "la107/random", "la107/reentrant", "la107/luaconst", "la107/shahash", "la107/port", "la107/guarded")
}

// TestLA107Facts: tokens kept in a field by a constructor, drawn by
// another package's helpers (through their Source facts), or fixed in a
// lock library's options.
func TestLA107Facts(t *testing.T) {
	analyzertest.Run(t, la107.Analyzer, nil, "la107/field", "la107/tokenuse", "la107/options", "la107/wrapped", "la107/lease", "la107/procuse", "la107/ctoruse")
}

// TestTokenFacts states the Source facts of a helper package.
func TestTokenFacts(t *testing.T) {
	analyzertest.Run(t, origin.Analyzer, nil, "la107/tokens", "la107/procid")
}
