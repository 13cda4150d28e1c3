package la101_test

import (
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la101"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestLA101(t *testing.T) {
	analyzertest.Run(t, la101.Analyzer, nil, "la101/goredis", "la101/redigo", "la101/valkeygo", "la101/glide", "la101/radix", "la101/lualocals", "la101/evidence/data", "la101/evidence/lock", "la101/embedded", "la101/wrappers", "la101/wrapperlib", "la101/wrapuse", "la101/toolarge", "la101/scriptload", "la101/shahash", "la101/port", "la101/port/data", "la101/guarded", "la101/pairedkeys", "la101/pairedkeys/data", "la101/evalwrapper", "la101/evalwrapper/data", "la101/scriptcopy", "la101/scriptcopy/data", "la101/embedpkg", "la101/embedpkg/data")
}

// TestLA101Targets: a scripted acquire is reported on every target (SET NX
// PX works everywhere); a compare-and-extend only where every target has
// SET IFEQ (Valkey 8.1+, Redis 8.4+); a compare-and-delete only where every
// target has one native release (DELIFEQ on Valkey 9.0+, DELEX IFEQ on
// Redis 8.4+ and Valkey 9.2+), and the advice names the one they all have.
func TestLA101Targets(t *testing.T) {
	const (
		acq, ext, rel, both = "target.go:9", "target.go:11", "target.go:13", "target.go:16"
		acquire             = "Lua lock script (acquire): use SET key token NX PX ttl instead"
		extend              = "Lua lock script (extend): use SET key token IFEQ token PX ttl instead"
		acquireExtend       = "Lua lock script (acquire, extend): use SET key token NX PX ttl, SET key token IFEQ token PX ttl instead"
	)
	noNative := map[string]string{acq: acquire, both: acquire}
	extendOnly := map[string]string{acq: acquire, ext: extend, both: acquireExtend}
	all := func(release string) map[string]string {
		return map[string]string{acq: acquire, ext: extend, both: acquireExtend, rel: "Lua lock script (release): use " + release + " instead"}
	}
	for _, c := range []struct {
		target string
		want   map[string]string
	}{
		{"valkey-8.0", noNative},
		{"valkey-8.1", extendOnly},
		{"valkey-9.0", all("DELIFEQ key token")},
		{"valkey-9.2", all("DELIFEQ key token")},
		{"redis-7.2", noNative},
		{"redis-8.4", all("DELEX key IFEQ token")},
		{"valkey-9.2,redis-8.4", all("DELEX key IFEQ token")},
		{"valkey-9.0,redis-8.4", extendOnly}, // no release command on both
		{"valkey-9.0,redis-7.2", noNative},
		{"valkey-9.0,valkey-8.1", extendOnly},
	} {
		t.Run(c.target, func(t *testing.T) {
			got := analyzertest.Diagnostics(t, la101.Analyzer, analyzertest.Settings(t, settings.OptTarget, c.target), "la101/target")
			analyzertest.SameDiagnostics(t, got, c.want)
		})
	}
}
