// Package config reads .lockaudit.yaml: target server versions, rule
// selection and severities, lock-key / fence patterns, protected-resource
// writers, and the probe's defaults. Every mistake in the file — an unknown
// key, a wrong type, an unknown rule ID, a bad pattern — is an error that
// names the file, the line and the key, because a config that is silently
// half-read is worse than none.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/yamlstrict"
)

// FileName is the name Find looks for.
const FileName = ".lockaudit.yaml"

// File is a parsed configuration. Zero values mean "not set": the command's
// own defaults apply.
type File struct {
	Path string `yaml:"-"`

	Version int `yaml:"version"` // 1, or absent

	// Targets are the server versions the fleet runs (or will run). LA112
	// reports a command that any of them lacks; preflight checks each.
	Targets []string `yaml:"target"`
	// Rules enables/disables rules and overrides severities, by rule ID
	// or name: LA110: off, plain-del-release: on, LA115: error.
	Rules map[string]string `yaml:"rules"`
	// LockKeys are regular expressions matched against constant key text
	// (LA103, LA114), replacing the default ("lock" as a word part).
	LockKeys []string `yaml:"lock_keys"`
	// FenceKeys are regular expressions that mark an INCR key as a fence (LA109).
	FenceKeys []string `yaml:"fence_keys"`
	// FenceColumns are regular expressions for SQL columns holding the fence (LA111).
	FenceColumns []string `yaml:"fence_columns"`
	// Writers are the protected-resource writers for LA110/LA111, as fully
	// qualified names: (*database/sql.DB).ExecContext,
	// (github.com/jackc/pgx/v5.Tx).Exec, example.com/app/repo.SaveInvoice.
	Writers []string `yaml:"writers"`

	Probe Probe `yaml:"probe"`
	// Scan holds lockaudit scan's settings; its lock keys are LockKeys.
	Scan Scan `yaml:"scan"`
	// Conform holds lockaudit conform's settings.
	Conform Conform `yaml:"conform"`
	// Report holds the audit report's engagement (audit, preflight).
	Report Report `yaml:"report"`
}

// Report holds what an audit report says about its engagement; the
// -title, -client, -system, -environment, -author and -notes flags of
// audit and preflight override each.
type Report struct {
	Title       string `yaml:"title"`
	Client      string `yaml:"client"`
	System      string `yaml:"system"`
	Environment string `yaml:"environment"`
	Author      string `yaml:"author"`
	// Notes is a Markdown file, relative to the config file's folder.
	Notes string `yaml:"notes"`
	// Reviewer and Version fill the report's sign-off block (Author is
	// who prepared it).
	Reviewer string `yaml:"reviewer"`
	Version  string `yaml:"version"`
	// Assign gives findings an owner and an effort.
	Assign []Assign `yaml:"assign"`
}

// Assign gives the findings Match names an owner and an effort: Match is
// a finding's ID (LA103-3f9c), a rule ID (LA103) or a file or folder of
// the code (billing/); the most precise match wins.
type Assign struct {
	Match  string `yaml:"match"`
	Owner  string `yaml:"owner"`
	Effort string `yaml:"effort"`
}

var findingIDPattern = regexp.MustCompile(`^(LA[0-9]{3})(-[0-9a-f]{4}(\.[0-9]+)?)?$`)

// checkAssign: a match, and an owner or an effort; a match that looks like
// a rule or finding ID names a rule of the catalog.
func checkAssign(as []Assign) error {
	for i, a := range as {
		where := fmt.Sprintf("item %d", i+1)
		switch {
		case strings.TrimSpace(a.Match) == "":
			return fmt.Errorf("%s: match: missing (a finding ID like LA103-3f9c, a rule ID like LA103, or a file or folder such as billing/)", where)
		case a.Owner == "" && a.Effort == "":
			return fmt.Errorf("%s (%s): gives neither an owner nor an effort", where, a.Match)
		}
		if m := findingIDPattern.FindStringSubmatch(a.Match); m != nil {
			if _, ok := rules.Lookup(m[1]); !ok {
				return fmt.Errorf("%s: match %s: unknown rule %s (run `lockaudit rules` for the list)", where, a.Match, m[1])
			}
		} else if strings.HasPrefix(a.Match, "LA") && !strings.ContainsAny(a.Match, "/.") {
			return fmt.Errorf("%s: match %q is neither a rule ID (LA103) nor a finding ID (LA103-3f9c)", where, a.Match)
		}
	}
	return nil
}

// Scan holds lockaudit scan's defaults; flags override them.
type Scan struct {
	// MaxLease is the longest TTL a lock key may carry (LA212); 0: not checked.
	MaxLease time.Duration `yaml:"max_lease"`
	Rate     int           `yaml:"rate"`  // keys per second per node
	Count    int           `yaml:"count"` // SCAN COUNT
}

// Conform holds lockaudit conform's defaults; flags override them.
type Conform struct {
	Prefix string        `yaml:"prefix"` // scratch keys start with it
	TTL    time.Duration `yaml:"ttl"`    // TTL of every scratch key
}

// DefaultLockKeys are the lock-key patterns when lock_keys is not set: "lock"
// or "locks" as a word part (lock:job, job:lock, job-lock, job_lock,
// locks/job; not block, clock or mylock). The analyzers (LA103, LA114) and
// lockaudit scan share them; they match case-insensitively.
var DefaultLockKeys = []string{`(^|[^a-z0-9])locks?([^a-z0-9]|$)`}

// LockKeyPatterns returns the lock-key patterns (lock_keys, else
// DefaultLockKeys) and their compiled, case-insensitive forms. f may be nil.
func (f *File) LockKeyPatterns() ([]string, []*regexp.Regexp, error) {
	src := DefaultLockKeys
	if f != nil && len(f.LockKeys) > 0 {
		src = f.LockKeys
	}
	res := make([]*regexp.Regexp, len(src))
	for i, s := range src {
		re, err := CompileKeyPattern(s)
		if err != nil {
			return nil, nil, err
		}
		res[i] = re
	}
	return append([]string(nil), src...), res, nil
}

// CompileKeyPattern compiles a key pattern the way every lock-key reader
// does: case-insensitively.
func CompileKeyPattern(s string) (*regexp.Regexp, error) {
	if s == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	re, err := regexp.Compile("(?i)" + s)
	if err != nil {
		return nil, fmt.Errorf("bad regular expression %q: %v", s, err)
	}
	return re, nil
}

// CheckScratchPrefix validates conform's scratch-key prefix: it must be
// non-empty, printable, without spaces or the braces of a hash tag (conform
// adds its own), and not a glob.
func CheckScratchPrefix(p string) error {
	if p == "" {
		return fmt.Errorf("the scratch-key prefix is empty")
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("{}*?[]\\", r) {
			return fmt.Errorf("scratch-key prefix %q: only printable characters without spaces, braces or glob characters", p)
		}
	}
	return nil
}

// Probe holds the probe's defaults; flags override them.
type Probe struct {
	Addrs        []string      `yaml:"addrs"`
	Sentinel     []string      `yaml:"sentinel"`
	Master       string        `yaml:"master"`
	User         string        `yaml:"user"`
	PasswordFile string        `yaml:"password_file"`
	TLS          TLS           `yaml:"tls"`
	Timeout      time.Duration `yaml:"timeout"`
	Deadline     time.Duration `yaml:"deadline"`
	Parallel     int           `yaml:"parallel"`
	Uses         []string      `yaml:"uses"`
	Skew         time.Duration `yaml:"skew"`
}

// TLS holds the probe's TLS settings. Verification cannot be turned off
// from the file.
type TLS struct {
	Enabled    bool   `yaml:"enabled"`
	CA         string `yaml:"ca"`
	Cert       string `yaml:"cert"`
	Key        string `yaml:"key"`
	ServerName string `yaml:"server_name"`
}

// Find walks up from dir to the filesystem root and returns the path of the
// first .lockaudit.yaml, or "" when there is none. One that is not a
// regular file (a FIFO would block the read forever) is an error.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			if !st.Mode().IsRegular() {
				return "", fmt.Errorf("%s is not a regular file (%v)", p, st.Mode().Type())
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and validates a config file (at most yamlstrict.MaxFileSize
// bytes, each list at most yamlstrict.DefaultMaxItems items).
func Load(path string) (*File, error) {
	data, err := yamlstrict.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(path, data)
}

// Parse decodes and validates config text; path is used in errors. It
// reports every problem in the file at once (a yamlstrict.Errors, in line
// order), each naming the file, the line and the key.
func Parse(path string, data []byte) (*File, error) {
	f := &File{Path: path}
	ruleKeys := map[string]string{} // rule ID -> the key that set it (an ID or a name)
	checks := yamlstrict.Checks{
		Item: func(key, name, value string) error {
			if err := validateItem(key, name, value); err != nil {
				return err
			}
			if key == "rules" {
				id := canonicalRule(name)
				if prev, dup := ruleKeys[id]; dup {
					return fmt.Errorf("%s is %s, already set as %s", name, id, prev)
				}
				ruleKeys[id] = name
			}
			return nil
		},
		Key:    func(key string) error { return validateKey(f, key) },
		Refuse: map[string]string{"probe.password": "passwords are never read from the config file; set LOCKAUDIT_PASSWORD or probe.password_file"},
	}
	if err := yamlstrict.Decode(path, data, f, checks); err != nil {
		return nil, err
	}
	return f, nil
}

// validateItem checks one list item or map entry (key is the dotted key,
// name the map key for map entries); errors carry the item's own line.
func validateItem(key, name, value string) error {
	switch key {
	case "target":
		if _, err := rules.ParseTarget(value); err != nil {
			return err
		}
	case "rules":
		if _, ok := rules.Lookup(name); !ok {
			return fmt.Errorf("unknown rule %q (run `lockaudit rules` for the list)", name)
		}
		if _, _, err := ParseRuleSetting(value); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	case "lock_keys", "fence_keys", "fence_columns":
		if _, err := regexp.Compile(value); err != nil {
			return fmt.Errorf("bad regular expression %q: %v", value, err)
		}
	case "writers":
		return checkWriter(value)
	case "probe.addrs", "probe.sentinel":
		if secret.InAddr(value) {
			return errors.New("an address " + secret.Refusal)
		}
	case "probe.uses":
		if _, err := rules.ParseCommand(value); err != nil {
			return err
		}
	}
	return nil
}

// validateKey checks a whole value once it is decoded.
func validateKey(f *File, key string) error {
	switch key {
	case "version":
		if f.Version != 1 {
			return fmt.Errorf("unsupported version %d (this lockaudit reads version 1)", f.Version)
		}
	case "probe.parallel":
		if f.Probe.Parallel < 1 {
			return fmt.Errorf("must be at least 1")
		}
	case "scan.max_lease", "conform.ttl":
		d := map[string]time.Duration{"scan.max_lease": f.Scan.MaxLease, "conform.ttl": f.Conform.TTL}[key]
		if d <= 0 {
			return fmt.Errorf("must be a positive duration such as 30s")
		}
	case "scan.rate":
		if f.Scan.Rate < 0 {
			return fmt.Errorf("must be 0 (no limit) or more keys per second")
		}
	case "scan.count":
		if f.Scan.Count < 1 {
			return fmt.Errorf("must be at least 1")
		}
	case "conform.prefix":
		return CheckScratchPrefix(f.Conform.Prefix)
	case "report.assign":
		return checkAssign(f.Report.Assign)
	case "probe.timeout", "probe.deadline", "probe.skew":
		d := map[string]time.Duration{"probe.timeout": f.Probe.Timeout, "probe.deadline": f.Probe.Deadline, "probe.skew": f.Probe.Skew}[key]
		if d <= 0 {
			return fmt.Errorf("must be a positive duration such as 3s")
		}
	}
	return nil
}

// ParseRuleSetting reads a rules: value: on/off (or true/false) enables or
// disables; error/warning/info enables with that severity.
func ParseRuleSetting(v string) (enabled bool, sev rules.Severity, err error) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "enabled":
		return true, 0, nil
	case "off", "false", "no", "disabled":
		return false, 0, nil
	}
	s, err := rules.ParseSeverity(strings.ToLower(v))
	if err != nil {
		return false, 0, fmt.Errorf("want on, off, error, warning or info, got %q", v)
	}
	return true, s, nil
}

var writerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\(\*?[\w./-]+\.\w+\)\.\w+|[\w./-]+\.\w+)$`) })

// checkWriter accepts (*pkg/path.Type).Method, (pkg/path.Type).Method and
// pkg/path.Func.
func checkWriter(w string) error {
	if !writerRE().MatchString(w) {
		return fmt.Errorf("bad writer %q: want (*pkg/path.Type).Method, (pkg/path.Type).Method or pkg/path.Func", w)
	}
	return nil
}

// canonicalRule is the rule ID of a rules: key, which may be an ID or a
// name in any case (plain-del-release: off).
func canonicalRule(key string) string {
	if r, ok := rules.Lookup(key); ok {
		return string(r.ID)
	}
	return strings.ToUpper(key)
}

// Selection turns the rules: map into a rules.Select spec applied after
// spec (the -rules flag wins: it is applied last by the caller) and a map
// of severity overrides.
func (f *File) Selection() (disabled []string, enabled []string, severity map[string]rules.Severity) {
	severity = map[string]rules.Severity{}
	for id, v := range f.Rules {
		id = canonicalRule(id)
		on, sev, _ := ParseRuleSetting(v)
		if !on {
			disabled = append(disabled, id)
			continue
		}
		enabled = append(enabled, id)
		if sev != 0 {
			severity[id] = sev
		}
	}
	return disabled, enabled, severity
}
