package la111_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la111"
)

func TestLA111(t *testing.T) {
	analyzertest.Run(t, la111.Analyzer, nil, "la111/goredis", "la111/redigo", "la111/valkeygo", "la111/libs")
}
