package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/conform"
	"github.com/lockaudit/lockaudit/probe/scan"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules/config"
	"github.com/lockaudit/lockaudit/rules/config/schemacheck"
)

// settingLine is a commented-out setting in the file config init writes:
// "# key: value", "#   key: value" (a key in lower case, or a rule ID) or
// "#   - item". Prose lines start with a capital letter or a writer's "(".
var settingLine = regexp.MustCompile(`^#( *)([a-z][a-z0-9_-]*:|LA[0-9]+:|- )`)

// uncomment returns the config text with its setting lines uncommented;
// lines marked "# example" only when examples is true.
func uncomment(text string, examples bool) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if settingLine.MatchString(l) && (examples || !strings.HasSuffix(l, "# example")) {
			lines[i] = strings.TrimPrefix(l, "# ")
		}
	}
	return strings.Join(lines, "\n")
}

// TestConfigInitChangesNothing: the file config init writes sets nothing
// but its version (every setting is commented out), so a run with it is a
// run without it; uncommenting its defaults gives exactly the built-in
// defaults; and uncommenting the examples too gives a valid file.
func TestConfigInitChangesNothing(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := runIn(t, dir, nil, "config", "init")
	if code != 0 {
		t.Fatalf("config init: exit %d\n%s", code, stderr)
	}
	path := filepath.Join(dir, config.FileName)
	if !strings.HasPrefix(stdout, "wrote "+path+": ") {
		t.Errorf("stdout %q", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	f, err := config.Parse(path, data)
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	if !reflect.DeepEqual(*f, config.File{Path: path, Version: 1}) {
		t.Errorf("the written file sets more than its version: %+v", *f)
	}

	defaults, err := config.Parse("defaults.yaml", []byte(uncomment(text, false)))
	if err != nil {
		t.Fatalf("the defaults, uncommented, do not parse: %v\n%s", err, uncomment(text, false))
	}
	want := config.File{Path: "defaults.yaml", Version: 1,
		Targets:      []string{settings.DefaultTarget},
		LockKeys:     settings.DefaultLockKeys,
		FenceKeys:    settings.DefaultFenceKeys,
		FenceColumns: settings.DefaultFenceColumns,
		Probe: config.Probe{
			Timeout: probe.DefaultTimeout, Deadline: probe.DefaultDeadline, Parallel: probe.DefaultParallel,
			Uses: useNames(probe.DefaultUses), Skew: probe.DefaultSkew,
		},
		Scan:    config.Scan{Rate: scan.DefaultRate, Count: scan.DefaultCount},
		Conform: config.Conform{Prefix: conform.DefaultPrefix, TTL: conform.DefaultTTL},
	}
	if !reflect.DeepEqual(*defaults, want) {
		t.Errorf("uncommented defaults:\n%+v\nwant the built-in defaults:\n%+v", *defaults, want)
	}
	for _, w := range settings.DefaultWriters {
		if !strings.Contains(text, "#   "+w+"\n") {
			t.Errorf("the file does not list the built-in writer %s", w)
		}
	}

	for name, src := range map[string]string{"as written": text, "defaults uncommented": uncomment(text, false), "all uncommented": uncomment(text, true)} {
		if err := schemacheck.Validate([]byte(src)); err != nil {
			t.Errorf("the file config init writes, %s, fails docs/lockaudit.schema.json: %v", name, err)
		}
	}
	all, err := config.Parse("all.yaml", []byte(uncomment(text, true)))
	if err != nil {
		t.Fatalf("the file with its examples uncommented does not parse: %v", err)
	}
	if len(all.Probe.Addrs) == 0 || len(all.Writers) == 0 || len(all.Rules) != 2 || all.Probe.TLS.CA == "" || all.Scan.MaxLease == 0 {
		t.Errorf("the examples did not all uncomment: %+v", all)
	}
	// The count of setting lines guards the regexp above: a template
	// change that hid the settings from it would make this test vacuous.
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if settingLine.MatchString(l) {
			n++
		}
	}
	if n < 25 {
		t.Errorf("only %d commented setting lines", n)
	}
}

// TestConfigInitRefusesToOverwrite: an existing file is kept unless -force.
func TestConfigInitRefusesToOverwrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, config.FileName)
	if err := os.WriteFile(path, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runIn(t, dir, nil, "config", "init")
	if code != report.ExitUsage || !strings.Contains(stderr, "exists; not overwriting it (use -force") {
		t.Errorf("second init: exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != "version: 1\n" {
		t.Errorf("the file was overwritten: %q", data)
	}
	if _, stderr, code := runIn(t, t.TempDir(), nil, "config", "init", "-force", "-C", dir); code != 0 {
		t.Errorf("-force -C: exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(path); string(data) != configTemplate() {
		t.Errorf("-force did not write the template")
	}
	for _, args := range [][]string{{"config"}, {"config", "nope"}, {"config", "init", "extra"}, {"config", "check", "a", "b"}} {
		if _, stderr, code := runIn(t, dir, nil, args...); code != report.ExitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr)
		}
	}
}

// TestConfigCheck: a valid file is reported valid with the settings in
// effect, the file's values and the defaults marked as such; a file with
// several mistakes exits 2 naming each with file, line and key.
func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "svc", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, config.FileName)
	good := "version: 1\ntarget: [valkey-8.1, valkey-9.0]\nrules:\n  unfenced-write: off\n  LA108: error\n  LA201: off\nwriters: ['example.com/orders/repo.Save']\nprobe:\n  addrs: [10.0.0.1]\n  timeout: 2s\n"
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runIn(t, sub, nil, "config", "check") // found walking up
	if code != 0 {
		t.Fatalf("config check: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		path + ": valid\n",
		"target: [valkey-8.1, valkey-9.0]\n",
		"  LA110: off  # unfenced-write\n",
		"  LA108: error  # lost-lock-ignored\n",
		"  LA103: error  # plain-del-release; default\n",
		"  LA201: off  # release-unavailable\n",
		"  LA202: error  # extend-unavailable; default\n",
		"lock_keys: ['(^|[^a-z0-9])locks?([^a-z0-9]|$)']  # default\n",
		"  - (*database/sql.DB).Exec  # built in\n",
		"  - example.com/orders/repo.Save\n",
		"  addrs: ['10.0.0.1:6379']\n",
		"  sentinel: []  # none: give them on the command line; default\n",
		"  timeout: 2s\n",
		"  deadline: 30s  # default\n",
		"  uses: [delifeq, ifeq]  # probe and conform; audit takes them from the code; unset, they are assumed from the fleet's flavor (delex, ifeq on Redis); default\n",
		"  max_lease: null  # not checked; default\n",
		"  rate: 50000  # keys per second per node; default\n",
		"  prefix: 'lockaudit:conform:'  # default\n",
		"  ttl: 30s  # default\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("config check output lacks %q:\n%s", want, stdout)
		}
	}
	// The same file named as an argument and with -config.
	for _, args := range [][]string{{"config", "check", path}, {"config", "check", "-config", path}, {"config", "check", "-C", sub}} {
		if out, stderr, code := runIn(t, t.TempDir(), nil, args...); code != 0 || out != stdout {
			t.Errorf("%q: exit %d, output differs:\n%s\n%s", args, code, out, stderr)
		}
	}

	bad := "version: 1\ntargets: [valkey-9.0]\nrules:\n  plain-del-rlease: off\nprobe:\n  timeout: soon\n"
	badPath := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badPath, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runIn(t, dir, nil, "config", "check", "bad.yaml")
	want := "lockaudit config: config: 3 mistakes:\n" +
		"  " + badPath + ":2: targets: unknown key (known keys: conform, fence_columns, fence_keys, lock_keys, probe, report, rules, scan, target, version, writers)\n" +
		"  " + badPath + ":4: rules: unknown rule \"plain-del-rlease\" (run `lockaudit rules` for the list)\n" +
		"  " + badPath + ":6: probe.timeout: want a duration such as 3s or 500ms, got \"soon\"\n"
	if code != report.ExitUsage || stderr != want || stdout != "" {
		t.Errorf("config check of a bad file: exit %d\nstdout %q\nstderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
	// The same errors from vet, which loads the config the same way.
	if _, stderr, code := runIn(t, dir, nil, "vet", "-config", "bad.yaml", "./..."); code != report.ExitUsage || !strings.Contains(stderr, "lockaudit vet: config: 3 mistakes:\n  "+badPath+":2: targets") {
		t.Errorf("vet with the bad file: exit %d\n%s", code, stderr)
	}

	empty := t.TempDir()
	if _, stderr, code := runIn(t, empty, map[string]string{}, "config", "check"); code != report.ExitUsage || !strings.Contains(stderr, "config init writes one") {
		t.Errorf("config check without a file: exit %d %s", code, stderr)
	}
}
