package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/yamlstrict"
)

func TestErrorsNameFileLineKey(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown top key", "version: 1\ntargets: [valkey-9.0]\n", `c.yaml:2: targets: unknown key (known keys: conform, fence_columns, fence_keys, lock_keys, probe, report, rules, scan, target, version, writers)`},
		{"unknown nested key", "probe:\n  adress: [x]\n", `c.yaml:2: probe.adress: unknown key (known keys under probe:`},
		{"wrong type list", "lock_keys: {a: b}\n", `c.yaml:1: lock_keys: want a list of strings, got a mapping`},
		{"wrong type duration", "probe:\n  timeout: soon\n", `c.yaml:2: probe.timeout: want a duration such as 3s or 500ms, got "soon"`},
		{"wrong type int", "probe:\n  parallel: many\n", `c.yaml:2: probe.parallel: want a whole number, got "many"`},
		{"unknown rule", "rules:\n  LA103: off\n  LA999: on\n", `c.yaml:3: rules: unknown rule "LA999"`},
		{"bad rule value", "rules:\n  LA103: loud\n", `c.yaml:2: rules: LA103: want on, off, error, warning or info, got "loud"`},
		{"bad target", "target: valkey-10.4\n", `c.yaml:1: target: unknown target "valkey-10.4"`},
		{"bad regexp", "lock_keys: ['(lock']\n", `c.yaml:1: lock_keys: bad regular expression "(lock"`},
		{"bad writer", "writers: ['(*sql.DB.Exec']\n", `c.yaml:1: writers: bad writer "(*sql.DB.Exec"`},
		{"password refused", "probe:\n  password: hunter2\n", `c.yaml:2: probe.password: passwords are never read from the config file`},
		{"bad use", "probe:\n  uses: [delifeq, lua5]\n", `c.yaml:2: probe.uses: unknown command "lua5" (want delifeq, delex, ifeq or lua)`},
		{"bad writer line", "writers:\n  - '(*database/sql.DB).Exec'\n  - 'not a name!'\n", `c.yaml:3: writers: bad writer "not a name!"`},
		{"zero parallel", "probe:\n  parallel: 0\n", `c.yaml:2: probe.parallel: must be at least 1`},
		{"zero max lease", "scan:\n  max_lease: 0s\n", `c.yaml:2: scan.max_lease: must be a positive duration`},
		{"negative rate", "scan:\n  rate: -5\n", `c.yaml:2: scan.rate: must be 0 (no limit) or more`},
		{"zero count", "scan:\n  count: 0\n", `c.yaml:2: scan.count: must be at least 1`},
		{"glob prefix", "conform:\n  prefix: 'scratch:*'\n", `c.yaml:2: conform.prefix: scratch-key prefix "scratch:*"`},
		{"hash tag prefix", "conform:\n  prefix: '{x}:'\n", `c.yaml:2: conform.prefix: scratch-key prefix "{x}:"`},
		{"empty prefix", "conform:\n  prefix: ''\n", `c.yaml:2: conform.prefix: the scratch-key prefix is empty`},
		{"zero ttl", "conform:\n  ttl: 0s\n", `c.yaml:2: conform.ttl: must be a positive duration`},
		{"assign without match", "report:\n  assign:\n    - {owner: ops}\n", `c.yaml:2: report.assign: item 1: match: missing`},
		{"assign without owner or effort", "report:\n  assign:\n    - {match: LA103}\n", `c.yaml:2: report.assign: item 1 (LA103): gives neither an owner nor an effort`},
		{"assign unknown rule", "report:\n  assign:\n    - {match: LA103, owner: a}\n    - {match: LA999-3f9c, owner: b}\n", `c.yaml:2: report.assign: item 2: match LA999-3f9c: unknown rule LA999`},
		{"assign bad ID", "report:\n  assign:\n    - {match: LA103-xyz, owner: a}\n", `report.assign: item 1: match "LA103-xyz" is neither a rule ID`},
		{"assign unknown key", "report:\n  assign:\n    - {match: LA103, owners: a}\n", `report.assign[0].owners: unknown key`},
		{"version", "version: 2\n", `c.yaml:1: version: unsupported version 2`},
		{"duplicate", "target: valkey-9.0\ntarget: valkey-8.1\n", `c.yaml:2: target: key given twice`},
		{"not yaml", "rules: [\n", `c.yaml: not valid YAML`},
		{"top not mapping", "- a\n- b\n", `c.yaml:1: want a mapping of keys, got a list`},
		{"rule set twice, by ID and name", "rules:\n  LA103: off\n  plain-del-release: on\n", `c.yaml:3: rules: plain-del-release is LA103, already set as LA103`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse accepted:\n%s", tc.src)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q\nwant it to contain %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error leaks the password: %q", err)
			}
		})
	}
}

// report.assign: IDs, rules and paths are accepted as matches.
func TestAssign(t *testing.T) {
	f, err := Parse("c.yaml", []byte("report:\n  reviewer: R\n  version: '1.0'\n  assign:\n    - {match: LA103-3f9c, owner: a, effort: 2h}\n    - {match: LA107, effort: 1d}\n    - {match: billing/, owner: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Report.Assign) != 3 || f.Report.Assign[0].Effort != "2h" || f.Report.Reviewer != "R" || f.Report.Version != "1.0" {
		t.Errorf("report %+v", f.Report)
	}
}

func TestSingleStringForList(t *testing.T) {
	f, err := Parse("c.yaml", []byte("target: redis-8.4\nprobe:\n  addrs: 10.0.0.1:6379\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Targets) != 1 || f.Targets[0] != "redis-8.4" || f.Probe.Addrs[0] != "10.0.0.1:6379" {
		t.Errorf("got %v %v", f.Targets, f.Probe.Addrs)
	}
}

func TestEmptyFile(t *testing.T) {
	f, err := Parse("c.yaml", nil)
	if err != nil || f == nil || len(f.Rules) != 0 {
		t.Fatalf("empty file: %v %+v", err, f)
	}
}

func TestFindWalksUp(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err != nil || (p != "" && strings.HasPrefix(p, root)) {
		t.Fatalf("Find with no file = %q, %v", p, err)
	}
	want := filepath.Join(root, "a", FileName)
	if err := os.WriteFile(want, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err != nil || p != want {
		t.Fatalf("Find = %q, %v; want %q", p, err, want)
	}
	if _, err := Load(filepath.Join(root, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("Load of a missing file: %v", err)
	}
	// A FIFO found on the way up would block the read forever: an error.
	fifo := filepath.Join(deep, FileName)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := Find(deep); err == nil || !strings.Contains(err.Error(), fifo+" is not a regular file") {
		t.Errorf("Find with a FIFO on the way = %q, %v", p, err)
	}
}

// TestSecretsRefusedUnshown: a value with credentials in it is refused
// wherever it stands (an address list, a single address, a name, a value
// whose wrong type would otherwise be quoted back, a mapping key), naming
// the line and key but never the value.
func TestSecretsRefusedUnshown(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"user:pass@ in addrs", "probe:\n  addrs: [10.0.0.1:6379, 'probe:hunter2@10.0.0.2:6379']\n", "c.yaml:2: probe.addrs: the value looks like a URL or carries credentials"},
		{"URL in lock_keys", "lock_keys:\n  - '^lock:'\n  - 'redis://u:hunter2@h:1'\n", "c.yaml:3: lock_keys: the value looks like a URL"},
		{"pass@ in sentinel", "probe:\n  sentinel: hunter2@10.0.0.9:26379\n", "c.yaml:2: probe.sentinel: the value looks like a URL or carries credentials"},
		{"pass@host without port", "probe:\n  addrs:\n    - hunter2@cache\n", "c.yaml:3: probe.addrs: an address looks like a URL or carries credentials"},
		{"redis://", "probe:\n  addrs: ['redis://:hunter2@10.0.0.1:6379']\n", "c.yaml:2: probe.addrs: the value looks like a URL"},
		{"rediss://", "probe:\n  addrs: ['rediss://default:hunter2@cache:6380']\n", "c.yaml:2: probe.addrs: the value looks like a URL"},
		{"valkey://", "probe:\n  sentinel: ['valkey://hunter2@s:26379']\n", "c.yaml:2: probe.sentinel: the value looks like a URL"},
		{"URL as master", "probe:\n  master: 'redis://u:hunter2@h:1'\n", "c.yaml:2: probe.master: the value looks like a URL"},
		{"URL where a duration goes", "probe:\n  timeout: 'valkey://u:hunter2@h:1'\n", "c.yaml:2: probe.timeout: the value looks like a URL"},
		{"URL as a key", "rules:\n  'redis://u:hunter2@h:1': off\n", "c.yaml:2: rules: a key looks like a URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "not shown") {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error echoes the secret: %q", err)
			}
		})
	}
}

// TestRuleNames: the rules: keys take rule names as well as IDs, in any
// case, and Selection gives canonical IDs.
func TestRuleNames(t *testing.T) {
	f, err := Parse("c.yaml", []byte("rules:\n  plain-del-release: off\n  Unfenced-Write: error\n  la108: on\n"))
	if err != nil {
		t.Fatal(err)
	}
	off, on, sev := f.Selection()
	sort.Strings(on)
	if strings.Join(off, ",") != "LA103" || strings.Join(on, ",") != "LA108,LA110" || sev["LA110"] != rules.Error || len(sev) != 1 {
		t.Errorf("Selection = off %v, on %v, severities %v", off, on, sev)
	}
}

// TestAllErrorsAtOnce: a file with several mistakes reports each of them,
// in line order, with file, line and key.
func TestAllErrorsAtOnce(t *testing.T) {
	src := `version: 1
targets: [valkey-9.0]
rules:
  LA103: loud
  LA999: off
lock_keys: ['(lock']
probe:
  adress: [127.0.0.1]
  timeout: soon
  password: hunter2
`
	_, err := Parse("c.yaml", []byte(src))
	want := []string{
		"c.yaml:2: targets: unknown key",
		`c.yaml:4: rules: LA103: want on, off, error, warning or info, got "loud"`,
		`c.yaml:5: rules: unknown rule "LA999"`,
		`c.yaml:6: lock_keys: bad regular expression "(lock"`,
		"c.yaml:8: probe.adress: unknown key",
		`c.yaml:9: probe.timeout: want a duration such as 3s or 500ms, got "soon"`,
		"c.yaml:10: probe.password: passwords are never read from the config file",
	}
	if err == nil {
		t.Fatal("Parse accepted a file with seven mistakes")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d = %q, want it to start with %q", i+1, lines[i], w)
		}
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Error("the errors leak the password")
	}
}

// TestLimits: a config file is bounded (docs/config.md#limits): a list or
// mapping of more than 1,000 items is refused at its line and key before
// any item is checked (a million lock_keys took 93 s and 2.5 GB), and a
// file larger than 2 MiB is refused before it is read in full (100 MB
// took 35 s to parse).
func TestLimits(t *testing.T) {
	list := func(key string, n int) string {
		var b strings.Builder
		b.WriteString("version: 1\n" + key + ":\n")
		for i := range n {
			fmt.Fprintf(&b, "  - 'lock:%d'\n", i)
		}
		return b.String()
	}
	if _, err := Parse("c.yaml", []byte(list("lock_keys", 1000))); err != nil {
		t.Errorf("1,000 lock_keys: %v", err)
	}
	for _, key := range []string{"lock_keys", "fence_keys", "writers", "target"} {
		_, err := Parse("c.yaml", []byte(list(key, 1001)))
		if err == nil || err.Error() != "c.yaml:3: "+key+": 1001 items: a list or mapping holds at most 1000 (docs/config.md#limits)" {
			t.Errorf("1,001 %s: %v", key, err)
		}
	}
	// A million: refused at once, one error, no item compiled.
	_, err := Parse("c.yaml", []byte(list("lock_keys", 100_000)))
	if es := yamlstrict.List(err); len(es) != 1 || !strings.Contains(err.Error(), "c.yaml:3: lock_keys: 100000 items") {
		t.Errorf("100,000 lock_keys: %d errors: %.200v", len(es), err)
	}
	var m strings.Builder
	m.WriteString("rules:\n")
	for i := range 1001 {
		fmt.Fprintf(&m, "  LA%d: off\n", i)
	}
	if _, err := Parse("c.yaml", []byte(m.String())); err == nil || !strings.Contains(err.Error(), "c.yaml:2: rules: 1001 items") {
		t.Errorf("1,001 rules: %.200v", err)
	}

	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, _ := os.Create(big)
	f.WriteString("lock_keys:\n")
	for range 10 {
		f.WriteString(strings.Repeat("# padding\n", 100_000))
	}
	f.Close()
	if _, err := Load(big); err == nil || err.Error() != "reading config: "+big+": larger than 2 MiB: a file written by hand holds a few kilobytes (docs/config.md#limits)" {
		t.Errorf("a 10 MB config: %v", err)
	}
	if _, err := Parse("c.yaml", make([]byte, 2<<20+1)); err == nil || !strings.Contains(err.Error(), "larger than 2 MiB") {
		t.Errorf("Parse of 2 MiB + 1: %v", err)
	}
}
