package analyzers

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// TestConfigure: the one path from a config file and the command line to
// a run's settings and rules, as vet, the go vet tool, the golangci-lint
// plugin and config check take it.
func TestConfigure(t *testing.T) {
	s, err := Configure(nil, Inputs{})
	if err != nil || len(s.Selected) != len(rules.ByKind(rules.Code)) || len(s.Off()) != 0 || strings.Join(s.Targets, ",") != settings.DefaultTarget {
		t.Fatalf("no file: %+v, %v; want every code rule at %s", s, err, settings.DefaultTarget)
	}

	f := parse(t, "target: [valkey-8.1]\nrules: {LA110: off, LA111: off}\nlock_keys: ['^mutex:']\n")
	s, err = Configure(f, Inputs{Enabled: map[string]bool{"LA111": true}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Selected["LA110"] || !s.Selected["LA111"] || !s.Off()["LA110"] || s.Off()["LA111"] {
		t.Errorf("LA110 off by the file, LA111 on by name: selected %v, off %v", s.Selected, s.Off())
	}
	if strings.Join(s.Targets, ",") != "valkey-8.1" || s.Settings.Get(settings.OptLockKeys) != "^mutex:" {
		t.Errorf("targets %v, lock_keys %q: want the file's", s.Targets, s.Settings.Get(settings.OptLockKeys))
	}
	// An option given on the command line keeps its value; -target wins.
	s, err = Configure(f, Inputs{Target: "valkey-9.0", Keep: []string{settings.OptLockKeys}})
	if err != nil || strings.Join(s.Targets, ",") != "valkey-9.0" || s.Settings.Get(settings.OptLockKeys) == "^mutex:" {
		t.Errorf("-target and a kept option: %v, %v, lock_keys %q", s.Targets, err, s.Settings.Get(settings.OptLockKeys))
	}
}

// TestConfigureErrors: each mistake says where it is, the file (by its
// path) or the flag.
func TestConfigureErrors(t *testing.T) {
	allOff := "rules: {"
	for i, r := range rules.ByKind(rules.Code) {
		if i > 0 {
			allOff += ", "
		}
		allOff += string(r.ID) + ": off"
	}
	allOff += "}\n"
	for _, tc := range []struct {
		name, yaml string
		in         Inputs
		flag       bool
		want       string
	}{
		{"flag target", "", Inputs{Target: "valkey-1.0"}, true, "-target: "},
		{"flag rules", "", Inputs{Rules: "LA999"}, true, "-rules: "},
		{"flag selects no code rule", "", Inputs{Rules: "LA201"}, true, `-rules "LA201" selects no code rule`},
		{"file turns every rule off", allOff, Inputs{}, false, "c.yaml: rules: every code rule is off"},
	} {
		var f *config.File
		if tc.yaml != "" {
			f = parse(t, tc.yaml)
		}
		_, err := Configure(f, tc.in)
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Flag != tc.flag || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v (flag %v), want %q, flag %v", tc.name, err, ce != nil && ce.Flag, tc.want, tc.flag)
		}
	}
	// go vet runs the tool per package: a file may turn every rule off.
	s, err := Configure(parse(t, allOff), Inputs{AllowNone: true})
	if err != nil || len(s.Off()) != len(rules.ByKind(rules.Code)) {
		t.Errorf("AllowNone: %v, off %v", err, s.Off())
	}
}
