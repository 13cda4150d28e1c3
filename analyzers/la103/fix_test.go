package la103_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix/fixtest"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/la112"
)

// TestLA103Fix checks DEL -> DELIFEQ on the default target (valkey-9.0).
func TestLA103Fix(t *testing.T) {
	fixtest.Run(t, testdata(t), la103.Analyzer, "la103/fix/goredis", "la103/fix/redigo", "la103/fix/valkeygo", "la103/fix/rueidis")
}

// TestLA103FixTarget: a target with DELEX but no DELIFEQ (Redis 8.4) gets
// DELEX key IFEQ token; a target with neither gets no fix.
func TestLA103FixTarget(t *testing.T) {
	defer setTarget(t, la112.DefaultTarget)
	setTarget(t, "redis-8.4")
	fixtest.Run(t, testdata(t), la103.Analyzer, "la103/fix/delex")
	setTarget(t, "valkey-9.0,valkey-8.1")
	fixtest.Run(t, testdata(t), la103.Analyzer, "la103/fix/old")
}

func setTarget(t *testing.T, s string) {
	t.Helper()
	if err := la103.Analyzer.Flags.Set("target", s); err != nil {
		t.Fatal(err)
	}
}
