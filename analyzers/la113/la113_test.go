package la113_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la113"
)

func TestLA113(t *testing.T) {
	analyzertest.Run(t, la113.Analyzer, nil, "la113/goredis", "la113/redigo", "la113/valkeygo", "la113/glide")
}
