package la107_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la107"
)

func TestLA107(t *testing.T) {
	analyzertest.Run(t, la107.Analyzer, nil, "la107/goredis", "la107/redigo", "la107/valkeygo", "la107/glide", "la107/evidence")
}
