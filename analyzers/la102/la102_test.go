package la102_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la102"
)

func TestLA102(t *testing.T) {
	analyzertest.Run(t, la102.Analyzer, nil, "la102/redsync", "la102/redislock", "la102/valkeylock", "la102/rueidislock", "la102/gozero")
}
