package la101_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la101"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// TestLA101Fix checks compare-and-delete scripts -> DELIFEQ on the default
// target against the .golden files, the nofix cases, and that the result
// compiles (including the import the removed script leaves unused).
func TestLA101Fix(t *testing.T) {
	analyzertest.RunFixes(t, la101.Analyzer, nil, "la101/fix/goredis", "la101/fix/valkeygo", "la101/fix/redigo", "la101/fix/nofix", "la101/fix/wrapped")
}

// TestLA101FixTarget: Redis 8.4 gets DELEX IFEQ. A fleet with a node below
// Valkey 9.0 and without DELEX — Valkey 8.1 alone, Valkey 9.0 next to 8.1,
// Redis before 8.4 — and a fleet where each node has one of the two but no
// command is on all (Valkey 9.0 has DELIFEQ and no DELEX, Redis 8.4 DELEX
// and no DELIFEQ) keep the Lua release: it is not reported, so no fix is
// offered. On Valkey 9.0 the same scripts are reported (the control).
func TestLA101FixTarget(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptTarget, "redis-8.4")
	analyzertest.RunFixes(t, la101.Analyzer, s, "la101/fix/delex")
	for _, target := range []string{"valkey-8.1", "valkey-9.0,valkey-8.1", "redis-8.2", "valkey-9.0,redis-8.4"} {
		t.Run(target, func(t *testing.T) {
			analyzertest.Run(t, la101.Analyzer, analyzertest.Settings(t, settings.OptTarget, target), "la101/fix/notarget")
		})
	}
	got := analyzertest.Diagnostics(t, la101.Analyzer, analyzertest.Settings(t, settings.OptTarget, "valkey-9.0"), "la101/fix/notarget")
	if len(got) != 3 {
		t.Errorf("valkey-9.0: %d findings %v, want the 3 scripts", len(got), got)
	}
}
