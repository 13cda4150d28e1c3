package la101_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix/fixtest"
	"github.com/lockaudit/lockaudit/analyzers/la101"
	"github.com/lockaudit/lockaudit/analyzers/la112"
)

// TestLA101Fix checks compare-and-delete scripts -> DELIFEQ on the default
// target against the .golden files, the nofix cases, and that the result
// compiles (including the import the removed script leaves unused).
func TestLA101Fix(t *testing.T) {
	fixtest.Run(t, testdata(t), la101.Analyzer, "la101/fix/goredis", "la101/fix/valkeygo", "la101/fix/redigo", "la101/fix/nofix")
}

// TestLA101FixTarget: Redis 8.4 gets DELEX IFEQ; a fleet with a node below
// Valkey 9.0 and without DELEX gets no fix — Valkey 8.1 alone, Valkey 9.0
// next to 8.1, Redis before 8.4 — and neither does a fleet where each node
// has one of the two but no command is on all (Valkey 9.0 has DELIFEQ and
// no DELEX, Redis 8.4 DELEX and no DELIFEQ).
func TestLA101FixTarget(t *testing.T) {
	defer setTarget(t, la112.DefaultTarget)
	setTarget(t, "redis-8.4")
	fixtest.Run(t, testdata(t), la101.Analyzer, "la101/fix/delex")
	for _, target := range []string{"valkey-8.1", "valkey-9.0,valkey-8.1", "redis-8.2", "valkey-9.0,redis-8.4"} {
		t.Run(target, func(t *testing.T) {
			setTarget(t, target)
			fixtest.Run(t, testdata(t), la101.Analyzer, "la101/fix/notarget")
		})
	}
}

func setTarget(t *testing.T, s string) {
	t.Helper()
	if err := la101.Analyzer.Flags.Set("target", s); err != nil {
		t.Fatal(err)
	}
}
