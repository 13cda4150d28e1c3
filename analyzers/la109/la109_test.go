package la109_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la109"
)

func TestLA109(t *testing.T) {
	analyzertest.Run(t, la109.Analyzer, nil, "la109/goredis", "la109/redigo", "la109/valkeygo", "la109/glide")
}
