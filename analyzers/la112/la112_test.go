package la112_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockaudit/lockaudit/analyzers/la112"
)

func testdata(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func withTarget(t *testing.T, target string) {
	t.Helper()
	if err := la112.Analyzer.Flags.Set("target", target); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := la112.Analyzer.Flags.Set("target", la112.DefaultTarget); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDefaultTarget(t *testing.T) {
	if got := la112.Analyzer.Flags.Lookup("target").DefValue; got != "valkey-9.0" {
		t.Errorf("default -target = %q, want valkey-9.0", got)
	}
	analysistest.Run(t, testdata(t), la112.Analyzer, "la112/valkey90")
}

func TestTargets(t *testing.T) {
	for _, c := range []struct{ target, pkg string }{
		{"valkey-8.0", "la112/valkey80"},
		{"redis-8.4", "la112/redis84"},
		{"Valkey-9.2", "la112/valkey92"},
	} {
		t.Run(c.target, func(t *testing.T) {
			withTarget(t, c.target)
			analysistest.Run(t, testdata(t), la112.Analyzer, c.pkg)
		})
	}
}

func TestUnknownTarget(t *testing.T) {
	for _, bad := range []string{"valkey-10.0", "keydb-6.3", "valkey", "9.0"} {
		err := la112.Analyzer.Flags.Set("target", bad)
		if err == nil {
			t.Errorf("-target %s: no error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "unknown target") {
			t.Errorf("-target %s: error %q does not say the target is unknown", bad, err)
		}
	}
	// a rejected value leaves the previous target in place
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != la112.DefaultTarget {
		t.Errorf("after rejected values -target = %q, want %q", got, la112.DefaultTarget)
	}
}

// TestSeveralTargets: a fleet running several releases; a command is
// reported when any of them lacks it, and the message names which.
func TestSeveralTargets(t *testing.T) {
	withTarget(t, "valkey-9.0, Redis-8.4,valkey-8.1")
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != "valkey-9.0,redis-8.4,valkey-8.1" {
		t.Errorf("-target = %q", got)
	}
	analysistest.Run(t, testdata(t), la112.Analyzer, "la112/fleet")

	withTarget(t, "valkey-9.2,valkey-8.1,")
	analysistest.Run(t, testdata(t), la112.Analyzer, "la112/fleetone")

	if err := la112.Analyzer.Flags.Set("target", " , "); err == nil {
		t.Error("an empty target list is accepted")
	}
	if err := la112.Analyzer.Flags.Set("target", "valkey-9.0,valkey-10.0"); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Errorf("a list with an unknown target: %v", err)
	}
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != "valkey-9.2,valkey-8.1" {
		t.Errorf("a rejected list changed the target to %q", got)
	}
}
