package la101_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la101"
)

func TestLA101(t *testing.T) {
	analyzertest.Run(t, la101.Analyzer, nil, "la101/goredis", "la101/redigo", "la101/valkeygo", "la101/glide", "la101/radix", "la101/lualocals")
}
