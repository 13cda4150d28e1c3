package la104_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la104"
)

func TestLA104(t *testing.T) {
	analyzertest.Run(t, la104.Analyzer, nil, "la104/goredis", "la104/valkeygo", "la104/glide", "la104/redigo")
}
