package la103_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA103(t *testing.T) {
	analyzertest.Run(t, la103.Analyzer, nil, "la103/goredis", "la103/redigo", "la103/valkeygo", "la103/glide", "la103/neg")
}

func TestLA103Pattern(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptLockKeys, `^mutex:`)
	analyzertest.Run(t, la103.Analyzer, s, "la103/pattern")
}
