package la103_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la103"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA103(t *testing.T) {
	analyzertest.Run(t, la103.Analyzer, nil, "la103/goredis", "la103/redigo", "la103/valkeygo", "la103/glide", "la103/neg", "la103/checked", "la103/wrapped", "la103/sharedkey", "la103/helperdel", "la103/helperdel/ndb", "la103/mirror", "la103/guarded", "la103/funcvalue", "la103/keyparam")
}

func TestLA103Pattern(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptLockKeys, `^mutex:`)
	analyzertest.Run(t, la103.Analyzer, s, "la103/pattern")
}

// TestLA103Targets: the advice is a release every target has: DELIFEQ,
// else DELEX IFEQ, else a Lua compare-and-delete.
func TestLA103Targets(t *testing.T) {
	msg := func(release string) map[string]string {
		return map[string]string{"target.go:12": "plain DEL of lock key `\"lock:\" + job` deletes whoever holds it: use " + release + " and check the reply"}
	}
	for _, c := range []struct {
		target string
		want   map[string]string
	}{
		{"valkey-8.0", msg("a Lua compare-and-delete")},
		{"valkey-8.1", msg("a Lua compare-and-delete")},
		{"valkey-9.0", msg("DELIFEQ key token")},
		{"valkey-9.2", msg("DELIFEQ key token")},
		{"redis-7.2", msg("a Lua compare-and-delete")},
		{"redis-8.4", msg("DELEX key IFEQ token")},
		{"valkey-9.2,redis-8.4", msg("DELEX key IFEQ token")},
		{"valkey-9.0,redis-8.4", msg("a Lua compare-and-delete")},
	} {
		t.Run(c.target, func(t *testing.T) {
			got := analyzertest.Diagnostics(t, la103.Analyzer, analyzertest.Settings(t, settings.OptTarget, c.target), "la103/target")
			analyzertest.SameDiagnostics(t, got, c.want)
		})
	}
}
