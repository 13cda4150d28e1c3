package la114_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la114"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA114(t *testing.T) {
	analyzertest.Run(t, la114.Analyzer, nil, "la114/goredis", "la114/redigo", "la114/valkeygo", "la114/glide", "la114/renew", "la114/sharedkey", "la114/keyer", "la114/guarded", "la114/funcvalue")
}

func TestLA114Pattern(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptLockKeys, `^mutex:`)
	analyzertest.Run(t, la114.Analyzer, s, "la114/pattern")
}

// TestLA114Targets: the advice is an extend every target has: SET IFEQ
// with a lease (Valkey 8.1+, Redis 8.4+), else a Lua compare-and-extend.
func TestLA114Targets(t *testing.T) {
	msg := func(extend string) map[string]string {
		return map[string]string{"target.go:13": "PEXPIRE of lock key `\"lock:\" + job` extends whoever holds it now: use " + extend + " and stop when it fails"}
	}
	native, lua := msg("SET key token IFEQ token PX ttl"), msg("a Lua compare-and-extend")
	for _, c := range []struct {
		target string
		want   map[string]string
	}{
		{"valkey-8.0", lua},
		{"valkey-8.1", native},
		{"valkey-9.0", native},
		{"valkey-9.2", native},
		{"redis-7.2", lua},
		{"redis-8.4", native},
		{"valkey-9.0,redis-8.4", native},
		{"valkey-9.0,redis-7.2", lua},
	} {
		t.Run(c.target, func(t *testing.T) {
			got := analyzertest.Diagnostics(t, la114.Analyzer, analyzertest.Settings(t, settings.OptTarget, c.target), "la114/target")
			analyzertest.SameDiagnostics(t, got, c.want)
		})
	}
}
