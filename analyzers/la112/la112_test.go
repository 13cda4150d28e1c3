package la112_test

import (
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/analyzertest"
	"github.com/lockaudit/lockaudit/analyzers/la112"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

func TestDefaultTarget(t *testing.T) {
	if got := la112.Analyzer.Flags.Lookup("target").DefValue; got != "valkey-9.0" {
		t.Errorf("default -target = %q, want valkey-9.0", got)
	}
	analyzertest.Run(t, la112.Analyzer, nil, "la112/valkey90")
}

func TestTargets(t *testing.T) {
	for _, c := range []struct{ target, pkg string }{
		{"valkey-8.0", "la112/valkey80"},
		{"redis-8.4", "la112/redis84"},
		{"Valkey-9.2", "la112/valkey92"},
	} {
		t.Run(c.target, func(t *testing.T) {
			analyzertest.Run(t, la112.Analyzer, analyzertest.Settings(t, settings.OptTarget, c.target), c.pkg)
		})
	}
}

func TestUnknownTarget(t *testing.T) {
	s := settings.Default()
	for _, bad := range []string{"valkey-10.0", "keydb-6.3", "valkey", "9.0"} {
		err := s.Set(settings.OptTarget, bad)
		if err == nil {
			t.Errorf("-target %s: no error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "unknown target") {
			t.Errorf("-target %s: error %q does not say the target is unknown", bad, err)
		}
	}
	// a rejected value leaves the previous target in place
	if got := s.Get(settings.OptTarget); got != settings.DefaultTarget {
		t.Errorf("after rejected values -target = %q, want %q", got, settings.DefaultTarget)
	}
}

// TestSeveralTargets: a fleet running several releases; a command is
// reported when any of them lacks it, and the message names which.
func TestSeveralTargets(t *testing.T) {
	s := analyzertest.Settings(t, settings.OptTarget, "valkey-9.0, Redis-8.4,valkey-8.1")
	if got := s.Get(settings.OptTarget); got != "valkey-9.0,redis-8.4,valkey-8.1" {
		t.Errorf("-target = %q", got)
	}
	analyzertest.Run(t, la112.Analyzer, s, "la112/fleet")

	s = analyzertest.Settings(t, settings.OptTarget, "valkey-9.2,valkey-8.1,")
	analyzertest.Run(t, la112.Analyzer, s, "la112/fleetone")

	if err := s.Set(settings.OptTarget, " , "); err == nil {
		t.Error("an empty target list is accepted")
	}
	if err := s.Set(settings.OptTarget, "valkey-9.0,valkey-10.0"); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Errorf("a list with an unknown target: %v", err)
	}
	if got := s.Get(settings.OptTarget); got != "valkey-9.2,valkey-8.1" {
		t.Errorf("a rejected list changed the target to %q", got)
	}
}
