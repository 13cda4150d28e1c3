package settings

import (
	"flag"
	"strings"
	"testing"

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

// declaredFlags are two rules' flag sets declaring the same option.
func declaredFlags(name string) (*flag.FlagSet, *flag.FlagSet) {
	a := flag.NewFlagSet("LA103", flag.ContinueOnError)
	Declare(a, name)
	b := flag.NewFlagSet("LA114", flag.ContinueOnError)
	Declare(b, name)
	return a, b
}

func TestPatternsFlag(t *testing.T) {
	s := Default()
	d1, d2 := declaredFlags(OptLockKeys)
	fs, fs2 := s.FlagSet(d1), s.FlagSet(d2)
	if err := fs.Parse([]string{"-lock-key-pattern", `^mutex:`, "-lock-key-pattern", `(^|:)guard{1,2}$`}); err != nil {
		t.Fatal(err)
	}
	// One value per run: what LA103's flag set, LA114's flag shows.
	if got := fs2.Lookup("lock-key-pattern").Value.String(); got != `^mutex:,(^|:)guard{1,2}$` {
		t.Errorf("LA114 sees %q", got)
	}
	for k, want := range map[string]bool{"mutex:job": true, "MUTEX:job": true, "a:guardd": true, "lock:job": false} {
		if _, got := s.LockKey(k); got != want {
			t.Errorf("after -lock-key-pattern: LockKey(%q) = %v, want %v", k, got, want)
		}
	}
	if err := fs.Parse([]string{"-lock-key-pattern", `(lock`}); err == nil || !strings.Contains(err.Error(), `bad lock-key pattern "(lock"`) {
		t.Errorf("bad pattern: err = %v", err)
	}
	// Another run starts from the defaults.
	if _, ok := Default().LockKey("lock:job"); !ok {
		t.Error("a new Settings does not have the default")
	}
	if err := s.lockKeys.SetList([]string{"^l:"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.LockKey("lock:job"); ok {
		t.Error("SetList did not replace the default")
	}
	if err := s.lockKeys.SetList(nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.LockKey("lock:job"); !ok {
		t.Error("SetList(nil) did not restore the default")
	}
}

func TestWritersFlag(t *testing.T) {
	s := Default()
	d, _ := declaredFlags(OptWriters)
	fs := s.FlagSet(d)
	if err := fs.Parse([]string{"-writers", "example.com/repo.SaveInvoice, (*example.com/repo.Store).Put"}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"example.com/repo.SaveInvoice", "(*example.com/repo.Store).Put", "(*database/sql.DB).ExecContext"} {
		if !s.Writer(n) {
			t.Errorf("Writer(%q) = false", n)
		}
	}
	if err := fs.Parse([]string{"-writers", "(*sql.DB.Exec"}); err == nil || !strings.Contains(err.Error(), `bad writer "(*sql.DB.Exec"`) {
		t.Errorf("bad writer: err = %v", err)
	}
}

// TestDeclared: a shared analyzer's flag only declares the option; setting
// it there is an error, and a run's copy keeps its name, usage and default.
func TestDeclared(t *testing.T) {
	fs := flag.NewFlagSet("LA112", flag.ContinueOnError)
	Declare(fs, OptTarget)
	f := fs.Lookup(OptTarget)
	if f.DefValue != DefaultTarget || !strings.HasPrefix(f.Usage, "oldest server release") {
		t.Errorf("declared -target: default %q, usage %q", f.DefValue, f.Usage)
	}
	if err := fs.Set(OptTarget, "valkey-8.1"); err == nil || !strings.Contains(err.Error(), "option of a run") {
		t.Errorf("setting the shared analyzer's flag: %v", err)
	}
	s := Default()
	bound := s.FlagSet(fs)
	if err := bound.Set(OptTarget, "valkey-8.1"); err != nil {
		t.Fatal(err)
	}
	if got := s.Get(OptTarget); got != "valkey-8.1" {
		t.Errorf("the bound flag set the target to %q", got)
	}
	if b := bound.Lookup(OptTarget); b.DefValue != DefaultTarget || b.Usage != f.Usage {
		t.Errorf("bound -target: default %q, usage %q", b.DefValue, b.Usage)
	}
	if err := s.Set(OptTarget, "valkey-10.0"); err == nil || s.Get(OptTarget) != "valkey-8.1" {
		t.Errorf("a rejected target: err %v, target %q", err, s.Get(OptTarget))
	}
}

func TestApply(t *testing.T) {
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
	s := Default()
	if err := s.Apply(f, targets); err != nil {
		t.Fatal(err)
	}
	if got := s.Get(OptTarget); got != "valkey-8.1,redis-8.4" {
		t.Errorf("target %q", got)
	}
	if _, ok := s.LockKey("lock:job"); ok {
		t.Error("lock_keys must replace the default pattern")
	}
	if _, ok := s.LockKey("mutex:job"); !ok {
		t.Error("lock_keys not applied")
	}
	if _, ok := s.FenceKey("epoch:job"); !ok {
		t.Error("fence_keys not applied")
	}
	if !s.FenceColumn("EPOCH") {
		t.Error("fence_columns not applied")
	}
	if !s.Writer("example.com/repo.Save") || !s.Writer("(*example.com/repo.Store).Put") || !s.Writer("(*database/sql.DB).ExecContext") {
		t.Error("writers must be added to the defaults")
	}

	// skip leaves an option for the caller (go vet's explicit flags).
	s = Default()
	if err := s.Apply(f, targets, OptLockKeys, OptTarget); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.LockKey("lock:job"); !ok {
		t.Error("a skipped option was applied")
	}
	if got := s.Get(OptTarget); got != DefaultTarget {
		t.Errorf("a skipped target was applied: %q", got)
	}
	if !s.Writer("example.com/repo.Save") {
		t.Error("writers not applied")
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

func TestDefaultLockKeyPattern(t *testing.T) {
	for s, want := range map[string]bool{
		"lock:job": true, "job:lock": true, "job-lock": true, "job_lock": true, "lock": true,
		"LOCK:JOB": true, "locks/job": true, "app.lock.job": true, "{lock}:x": true,
		"block:7": false, "clock": false, "mylock": false, "unlocked": false, "lockers": false,
		"cache:user": false, "": false,
	} {
		if _, got := Default().LockKey(s); got != want {
			t.Errorf("LockKey(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDefaultFencePatterns(t *testing.T) {
	for s, want := range map[string]bool{
		"fence:{job}": true, "job:fence": true, "job:fencing_token": true, "token:7": true,
		"tokens:user": false, "fences": false, "counter:job": false,
	} {
		if _, got := Default().FenceKey(s); got != want {
			t.Errorf("FenceKey(%q) = %v, want %v", s, got, want)
		}
	}
	for s, want := range map[string]bool{"last_fence": true, "fencing_token": true, "Fence": true, "id": false} {
		if got := Default().FenceColumn(s); got != want {
			t.Errorf("FenceColumn(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestDeclaredDefaults: the default each declared flag shows (written out
// without compiling patterns) is the default a run starts with.
func TestDeclaredDefaults(t *testing.T) {
	for _, name := range []string{OptTarget, OptLockKeys, OptFenceKeys, OptFenceColumn, OptWriters} {
		fs := flag.NewFlagSet("LA100", flag.ContinueOnError)
		Declare(fs, name)
		if got, want := fs.Lookup(name).DefValue, Default().value(name).String(); got != want {
			t.Errorf("-%s shows default %q, a run starts with %q", name, got, want)
		}
	}
	if _, ok := defaultText("no-such-option"); ok {
		t.Error("an unknown option has a default")
	}
}
