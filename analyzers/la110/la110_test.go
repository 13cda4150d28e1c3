package la110_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la110"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA110(t *testing.T) {
	analyzertest.Run(t, la110.Analyzer, nil, "la110/goredis", "la110/redigo", "la110/valkeygo", "la110/glide", "la110/libs")
}

func TestLA110Writers(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptWriters, "la110/writers.SaveInvoice,(*la110/writers.Store).Put")
	analyzertest.Run(t, la110.Analyzer, s, "la110/writers")
}
