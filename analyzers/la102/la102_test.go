package la102_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la102"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA102(t *testing.T) {
	analyzertest.Run(t, la102.Analyzer, nil, "la102/redsync", "la102/redislock", "la102/valkeylock", "la102/rueidislock", "la102/gozero", "la102/gozero/claim", "la102/oldredsync")
}

// TestLA102Targets: a library's extend is reported only where every target
// has SET IFEQ; its release, and its Lua acquire (which cannot be replaced
// alone: the release it pairs with must stay Lua), only where every target
// has one native release. A library's native acquire never is.
func TestLA102Targets(t *testing.T) {
	const (
		rsExtend, rsRelease            = "target.go:22", "target.go:25"
		blObtain, blRefresh, blRelease = "target.go:33", "target.go:37", "target.go:40"
		extendMsg                      = " (extend) runs Lua: use SET key token IFEQ token PX ttl instead"
	)
	extends := map[string]string{rsExtend: "Mutex.ExtendContext" + extendMsg, blRefresh: "Lock.Refresh" + extendMsg}
	all := func(release string) map[string]string {
		return map[string]string{
			rsExtend:  "Mutex.ExtendContext" + extendMsg,
			blRefresh: "Lock.Refresh" + extendMsg,
			rsRelease: "Mutex.UnlockContext (release) runs Lua: use " + release + " instead",
			blRelease: "Lock.Release (release) runs Lua: use " + release + " instead",
			blObtain:  "redislock.Obtain (acquire) runs Lua: lock with SET key token NX PX ttl and " + release + " instead of the library",
		}
	}
	for _, c := range []struct {
		target string
		want   map[string]string
	}{
		{"valkey-8.0", nil},
		{"valkey-8.1", extends},
		{"valkey-9.0", all("DELIFEQ key token")},
		{"valkey-9.2", all("DELIFEQ key token")},
		{"redis-7.2", nil},
		{"redis-8.4", all("DELEX key IFEQ token")},
		{"valkey-9.0,redis-8.4", extends}, // no release command on both
		{"valkey-9.0,redis-7.2", nil},
	} {
		t.Run(c.target, func(t *testing.T) {
			got := analyzertest.Diagnostics(t, la102.Analyzer, analyzertest.Settings(t, settings.OptTarget, c.target), "la102/target")
			analyzertest.SameDiagnostics(t, got, c.want)
		})
	}
}
