package la108_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la108"
)

func TestLA108(t *testing.T) {
	analyzertest.Run(t, la108.Analyzer, nil, "la108/goredis", "la108/redigo", "la108/valkeygo", "la108/glide", "la108/radix", "la108/libs", "la108/gozero", "la108/helpers", "la108/helperuse", "la108/memstore", "la108/ifacemod/app", "la108/watchdog", "la108/quorum", "la108/evaluse")
}
