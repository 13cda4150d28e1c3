package la103_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// TestLA103Fix checks DEL -> DELIFEQ on the default target (valkey-9.0).
func TestLA103Fix(t *testing.T) {
	analyzertest.RunFixes(t, la103.Analyzer, nil, "la103/fix/goredis", "la103/fix/redigo", "la103/fix/valkeygo", "la103/fix/rueidis")
}

// TestLA103FixTarget: a target with DELEX but no DELIFEQ (Redis 8.4) gets
// DELEX key IFEQ token; a target with neither gets no fix.
func TestLA103FixTarget(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptTarget, "redis-8.4")
	analyzertest.RunFixes(t, la103.Analyzer, s, "la103/fix/delex")
	s = analyzertest.Settings(t, settings.OptTarget, "valkey-9.0,valkey-8.1")
	analyzertest.RunFixes(t, la103.Analyzer, s, "la103/fix/old")
}
