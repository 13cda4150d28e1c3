package la115_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la115"
)

func TestLA115(t *testing.T) {
	analyzertest.Run(t, la115.Analyzer, nil, "la115/goredis", "la115/redigo", "la115/valkeygo", "la115/glide", "la115/radix")
}
