package la114_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la114"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA114(t *testing.T) {
	analyzertest.Run(t, la114.Analyzer, nil, "la114/goredis", "la114/redigo", "la114/valkeygo", "la114/glide")
}

func TestLA114Pattern(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptLockKeys, `^mutex:`)
	analyzertest.Run(t, la114.Analyzer, s, "la114/pattern")
}
