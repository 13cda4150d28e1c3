package la106_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la106"
)

func TestLA106(t *testing.T) {
	analyzertest.Run(t, la106.Analyzer, nil, "la106/goredis", "la106/valkeygo", "la106/glide", "la106/redigo", "la106/radix", "la106/evidence", "la106/renew", "la106/redis_lock", "la106/wrapexpire", "la106/unit")
}
