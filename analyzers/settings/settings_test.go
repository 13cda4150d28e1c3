package settings

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/internal/flow"
	"github.com/lockaudit/lockaudit/analyzers/la112"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

func parse(t *testing.T, src string) *config.File {
	t.Helper()
	f, err := config.Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestApplyAndReset(t *testing.T) {
	t.Cleanup(Reset)
	f := parse(t, `
target: [valkey-8.1, redis-8.4]
lock_keys: ['^mutex:']
fence_keys: ['^epoch:']
fence_columns: ['epoch']
writers: ['example.com/repo.Save', '(*example.com/repo.Store).Put']
`)
	targets, err := Targets(f, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(f, targets); err != nil {
		t.Fatal(err)
	}
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != "valkey-8.1,redis-8.4" {
		t.Errorf("target %q", got)
	}
	if _, ok := flow.LockKeys.Match("lock:job"); ok {
		t.Error("lock_keys must replace the default pattern")
	}
	if _, ok := flow.LockKeys.Match("mutex:job"); !ok {
		t.Error("lock_keys not applied")
	}
	if _, ok := flow.FenceKeys.Match("epoch:job"); !ok {
		t.Error("fence_keys not applied")
	}
	if _, ok := flow.FenceColumns.Match("EPOCH"); !ok {
		t.Error("fence_columns not applied")
	}
	if !flow.Writers.Has("example.com/repo.Save") || !flow.Writers.Has("(*example.com/repo.Store).Put") || !flow.Writers.Has("(*database/sql.DB).ExecContext") {
		t.Error("writers must be added to the defaults")
	}

	// Applying again (another run in the same process) starts from the
	// defaults: nothing of the first config remains.
	if err := Apply(nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := flow.LockKeys.Match("lock:job"); !ok {
		t.Error("the default lock-key pattern is not restored")
	}
	if flow.Writers.Has("example.com/repo.Save") {
		t.Error("writers leaked into the next run")
	}
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != DefaultTarget {
		t.Errorf("target after reset %q", got)
	}

	// skip leaves an option for the caller (go vet's explicit flags).
	if err := Apply(f, targets, OptLockKeys, OptTarget); err != nil {
		t.Fatal(err)
	}
	if _, ok := flow.LockKeys.Match("lock:job"); !ok {
		t.Error("a skipped option was applied")
	}
	if got := la112.Analyzer.Flags.Lookup("target").Value.String(); got != DefaultTarget {
		t.Errorf("a skipped target was applied: %q", got)
	}
}

func TestTargets(t *testing.T) {
	f := parse(t, "target: [valkey-8.1]\n")
	for _, tc := range []struct {
		f    *config.File
		flag string
		want string
	}{
		{nil, "", DefaultTarget},
		{f, "", "valkey-8.1"},
		{f, "Valkey-9.2, redis-8.4,valkey-9.2", "valkey-9.2,redis-8.4"},
	} {
		got, err := Targets(tc.f, tc.flag)
		if err != nil || strings.Join(got, ",") != tc.want {
			t.Errorf("Targets(%v, %q) = %v, %v; want %s", tc.f != nil, tc.flag, got, err, tc.want)
		}
	}
	if _, err := Targets(nil, "valkey-9.0,valkey-9.9"); err == nil || !strings.Contains(err.Error(), "valkey-9.9") {
		t.Errorf("an unknown target: %v", err)
	}
}

func TestSelect(t *testing.T) {
	f := parse(t, "rules:\n  LA108: off\n  LA110: warning\n  LA201: off\n")
	all := len(rules.ByKind(rules.Code))
	for _, tc := range []struct {
		name string
		f    *config.File
		spec string
		want string // "+ID" must be in, "-ID" must be out; "#N" the size
	}{
		{"defaults", nil, "", "+LA100 +LA108 #" + itoa(all)},
		{"file off", f, "", "-LA108 +LA110 +LA100 #" + itoa(all-1)},
		{"flag list wins", f, "LA108,LA103", "+LA108 +LA103 +LA100 -LA110 #3"},
		{"flag glob", f, "LA10*", "+LA108 +LA100 +LA101 -LA110 #10"},
		{"flag edits the file's", f, "-LA103", "-LA103 -LA108 +LA110 #" + itoa(all-2)},
		{"flag re-enables", f, "-LA103,LA108", "-LA103 +LA108 #" + itoa(all-1)},
		{"LA100 off by name", f, "LA103,-LA100", "+LA103 -LA100 #1"},
		{"node rules ignored", nil, "LA2*", "+LA100 #1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := Select(tc.f, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range strings.Fields(tc.want) {
				switch w[0] {
				case '+':
					if !sel[w[1:]] {
						t.Errorf("%s not selected: %v", w[1:], IDs(sel))
					}
				case '-':
					if sel[w[1:]] {
						t.Errorf("%s selected: %v", w[1:], IDs(sel))
					}
				case '#':
					if itoa(len(sel)) != w[1:] {
						t.Errorf("%d rules selected, want %s: %v", len(sel), w[1:], IDs(sel))
					}
				}
			}
		})
	}
	if _, err := Select(nil, "LA103,LA999"); err == nil || !strings.Contains(err.Error(), "LA999") {
		t.Errorf("unknown rule: %v", err)
	}
}

func TestSeverities(t *testing.T) {
	f := parse(t, "rules:\n  LA110: info\n  la103: on\n")
	sev := Severities(f)
	if len(sev) != 1 || sev["LA110"] != rules.Info {
		t.Errorf("severities %v", sev)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
