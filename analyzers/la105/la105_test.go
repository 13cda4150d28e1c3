package la105_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la105"
)

func TestLA105(t *testing.T) {
	analyzertest.Run(t, la105.Analyzer, nil, "la105/goredis", "la105/redigo", "la105/valkeygo", "la105/glide", "la105/radix")
}
