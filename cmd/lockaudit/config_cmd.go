package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/internal/outfile"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/conform"
	"github.com/lockaudit/lockaudit/probe/scan"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
	"github.com/lockaudit/lockaudit/rules/yamlstrict"
)

func init() {
	register(&command{
		Name:    "config",
		Usage:   "config init [-force] [-C DIR]\nconfig check [-config FILE] [-C DIR] [FILE...]",
		Summary: "Write a commented .lockaudit.yaml (init), or validate one and print the effective settings (check).",
		Doc: `lockaudit vet, audit, preflight and probe find .lockaudit.yaml by walking
up from the working directory (or read -config FILE); flags win over it.

config init writes a .lockaudit.yaml in the working directory (or -C DIR)
in which every setting is commented out and shows its built-in default,
so the new file changes nothing until a line is uncommented. An existing
file is never overwritten unless -force is given.

config check finds the file as vet does (or takes FILE, or -config FILE;
several FILEs are each checked, as a pre-commit hook passes them),
validates it as every command would — reporting every mistake at once,
each as file:line: key: what is wrong — and prints the effective
settings: the file's values, and the defaults for what it leaves out.

Editors can validate and complete the file with the JSON Schema in the
repository's docs/lockaudit.schema.json.`,
		Examples: `lockaudit config init
lockaudit config init -C services/orders -force
lockaudit config check
lockaudit config check ci/lockaudit.yaml`,
		Exit: `0  written (init); valid (check)
1  the file could not be written or read
2  usage error; the file exists (init, without -force); the file has
   mistakes, or there is none to check (check)`,
		Run: runConfig,
	})
}

// configFlags are both subcommands' flag sets; the help page shows both.
type configFlags struct {
	init, check *flag.FlagSet
	force       bool
	dir         string // -C (both)
	file        string // check's -config
}

func newConfigFlags(e *env) *configFlags {
	c := &configFlags{init: newFlagSet(e, "config init"), check: newFlagSet(e, "config check")}
	c.init.BoolVar(&c.force, "force", false, "overwrite an existing "+config.FileName)
	c.init.StringVar(&c.dir, "C", "", "write into `DIR` instead of the working directory")
	c.check.StringVar(&c.file, "config", "", "check `FILE` (default: the first "+config.FileName+" found walking up from the working directory, or -C DIR)")
	c.check.StringVar(&c.dir, "C", "", "look for the file from `DIR` instead of the working directory")
	page := func() { printHelp(e.Stdout, commands["config"], c.init, c.check) }
	c.init.Usage, c.check.Usage = page, page
	return c
}

func runConfig(ctx context.Context, e *env, args []string) error {
	c := newConfigFlags(e)
	if len(args) > 0 && helpRequested(args[:1]) {
		c.init.Usage()
		return nil
	}
	if len(args) == 0 || (args[0] != "init" && args[0] != "check") {
		return usageError("want a subcommand: lockaudit config init, or lockaudit config check (lockaudit help config)")
	}
	fs := c.init
	if args[0] == "check" {
		fs = c.check
	}
	if done, err := parseFlags(fs, args[1:]); done {
		return err
	}
	dir := e.Dir
	if c.dir != "" {
		dir = c.dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(e.Dir, dir)
		}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageError("-C %s: not a directory", dir)
	}
	if args[0] == "init" {
		if fs.NArg() > 0 {
			return usageError("config init takes no arguments (got %q)", fs.Arg(0))
		}
		return configInit(e, dir, c.force)
	}
	switch {
	case fs.NArg() > 0 && c.file != "":
		return usageError("give the files as arguments or one as -config, not both")
	case fs.NArg() > 1:
		// Several files (a pre-commit hook passes every changed one):
		// each is checked and reported; any mistake fails the command.
		var failed []string
		for _, f := range fs.Args() {
			if err := configCheck(e, dir, f); err != nil {
				fmt.Fprintf(e.Stderr, "lockaudit config: %s\n", report.EscapeLines(err.Error()))
				failed = append(failed, f)
			}
		}
		if len(failed) > 0 {
			return usageError("%s of %d %s mistakes: %s", report.Plural(len(failed), "file"), fs.NArg(), map[bool]string{true: "has", false: "have"}[len(failed) == 1], strings.Join(failed, ", "))
		}
		return nil
	case fs.NArg() == 1:
		c.file = fs.Arg(0)
	}
	return configCheck(e, dir, c.file)
}

// configInit writes the commented defaults into dir/.lockaudit.yaml; an
// existing file only with force.
func configInit(e *env, dir string, force bool) error {
	path := filepath.Join(dir, config.FileName)
	if _, err := os.Lstat(path); err == nil && !force {
		return usageError("%s exists; not overwriting it (use -force to replace it)", path)
	}
	// The one safe writer: atomic, and never through a link or over
	// something that is not a writable regular file, -force or not.
	if err := outfile.Write(path, []byte(configTemplate())); err != nil {
		return failure("%v", err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s: every setting is commented out and shows its default; lockaudit config check prints what is in effect\n", report.Escape(path))
	return nil
}

// configCheck validates the config file as the commands load it — the
// file itself (every mistake at once), its targets, its patterns and its
// rule selection — and prints the effective settings.
func configCheck(e *env, dir, file string) error {
	f, err := loadConfig(dir, file)
	if err != nil {
		return err
	}
	if f == nil {
		return usageError("no %s in %s or above: lockaudit config init writes one", config.FileName, dir)
	}
	setup, err := analyzers.Configure(f, analyzers.Inputs{})
	if err != nil {
		return usageError("config: %v", err)
	}
	fmt.Fprintf(e.Stdout, "%s: valid\n\n", f.Path)
	writeEffective(e.Stdout, f, setup.Targets, setup.Selected)
	return nil
}

// writeEffective prints the settings in effect for a config file, as YAML
// in the file's own keys: the file's values, and the defaults for what it
// leaves out (marked "# default").
func writeEffective(w io.Writer, f *config.File, targets []string, sel map[string]bool) {
	fmt.Fprintf(w, "# Settings in effect (flags on a command line still win over them):\n")
	line := func(indent, key string, value any, fromFile bool, note string) {
		comment := note
		if !fromFile {
			comment = strings.TrimPrefix(note+"; default", "; ")
		}
		if comment != "" {
			comment = "  # " + comment
		}
		fmt.Fprintf(w, "%s%s: %s%s\n", indent, key, yamlFlow(value), comment)
	}
	line("", "target", targets, len(f.Targets) > 0, "")

	fmt.Fprintf(w, "rules:  # code and node rules; severities as in lockaudit rules unless set here\n")
	off, _, sev := f.Selection()
	set := map[string]bool{}
	for key := range f.Rules {
		r, _ := rules.Lookup(key)
		set[string(r.ID)] = true
	}
	for _, r := range rules.ByKind(rules.Code) {
		id := string(r.ID)
		v := "off"
		if sel[id] {
			v = r.Severity.String()
			if s, ok := sev[id]; ok {
				v = s.String()
			}
		}
		line("  ", id, rawYAML(v), set[id], r.Name)
	}
	// Node rules are always judged; the file only hides or re-grades their
	// findings (the verdicts stay as the evidence says).
	for _, r := range rules.ByKind(rules.Node) {
		id := string(r.ID)
		v := r.Severity.String()
		if s, ok := sev[id]; ok {
			v = s.String()
		}
		if slices.Contains(off, id) {
			v = "off"
		}
		line("  ", id, rawYAML(v), set[id], r.Name)
	}

	line("", "lock_keys", orDefault(f.LockKeys, settings.DefaultLockKeys), len(f.LockKeys) > 0, "")
	line("", "fence_keys", orDefault(f.FenceKeys, settings.DefaultFenceKeys), len(f.FenceKeys) > 0, "")
	line("", "fence_columns", orDefault(f.FenceColumns, settings.DefaultFenceColumns), len(f.FenceColumns) > 0, "")
	fmt.Fprintf(w, "writers:  # the built-in writers, then the file's\n")
	for _, wr := range settings.DefaultWriters {
		fmt.Fprintf(w, "  - %s  # built in\n", yamlFlow(wr))
	}
	for _, wr := range f.Writers {
		fmt.Fprintf(w, "  - %s\n", yamlFlow(wr))
	}

	p := f.Probe
	fmt.Fprintf(w, "probe:  # defaults of lockaudit probe and audit\n")
	addrs := func(key string, list []string, port string) {
		note := "none: give them on the command line"
		if len(list) > 0 {
			note = ""
		}
		out := make([]string, len(list))
		for i, a := range list {
			out[i] = withDefaultPort(a, port)
		}
		line("  ", key, out, len(list) > 0, note)
	}
	addrs("addrs", p.Addrs, DefaultPort)
	addrs("sentinel", p.Sentinel, DefaultSentinelPort)
	line("  ", "master", p.Master, p.Master != "", "")
	line("  ", "user", p.User, p.User != "", "")
	line("  ", "password_file", p.PasswordFile, p.PasswordFile != "", "else LOCKAUDIT_PASSWORD")
	fmt.Fprintf(w, "  tls:\n")
	line("    ", "enabled", p.TLS.Enabled, p.TLS.Enabled, "")
	line("    ", "ca", p.TLS.CA, p.TLS.CA != "", "")
	line("    ", "cert", p.TLS.Cert, p.TLS.Cert != "", "")
	line("    ", "key", p.TLS.Key, p.TLS.Key != "", "")
	line("    ", "server_name", p.TLS.ServerName, p.TLS.ServerName != "", "")
	dur := func(key string, v, def time.Duration) { line("  ", key, orDefault(v, def).String(), v > 0, "") }
	dur("timeout", p.Timeout, probe.DefaultTimeout)
	dur("deadline", p.Deadline, probe.DefaultDeadline)
	line("  ", "parallel", orDefault(p.Parallel, probe.DefaultParallel), p.Parallel > 0, "")
	line("  ", "uses", orDefault(p.Uses, useNames(probe.DefaultUses)), len(p.Uses) > 0, "probe and conform; audit takes them from the code; unset, they are assumed from the fleet's flavor (delex, ifeq on Redis)")
	dur("skew", p.Skew, probe.DefaultSkew)

	fmt.Fprintf(w, "scan:  # defaults of lockaudit scan\n")
	if f.Scan.MaxLease > 0 {
		line("  ", "max_lease", f.Scan.MaxLease.String(), true, "")
	} else {
		line("  ", "max_lease", nil, false, "not checked")
	}
	line("  ", "rate", orDefault(f.Scan.Rate, scan.DefaultRate), f.Scan.Rate > 0, "keys per second per node")
	line("  ", "count", orDefault(f.Scan.Count, scan.DefaultCount), f.Scan.Count > 0, "")
	fmt.Fprintf(w, "conform:  # defaults of lockaudit conform\n")
	prefix := f.Conform.Prefix
	if prefix == "" {
		prefix = conform.DefaultPrefix
	}
	line("  ", "prefix", prefix, f.Conform.Prefix != "", "")
	line("  ", "ttl", orDefault(f.Conform.TTL, conform.DefaultTTL).String(), f.Conform.TTL > 0, "")
	fmt.Fprintf(w, "report:  # the engagement audit and preflight reports name\n")
	rp := f.Report
	line("  ", "title", orDefault(rp.Title, "Distributed-lock audit"), rp.Title != "", "")
	for _, kv := range [][2]string{{"client", rp.Client}, {"system", rp.System}, {"environment", rp.Environment}, {"author", rp.Author}, {"notes", rp.Notes}} {
		if kv[1] != "" {
			line("  ", kv[0], kv[1], true, "")
		} else {
			line("  ", kv[0], nil, false, "none")
		}
	}
}

// orDefault is v, or def when v is the zero value (an empty list).
func orDefault[T any](v, def T) T {
	switch x := any(v).(type) {
	case []string:
		if len(x) == 0 {
			return def
		}
	case time.Duration:
		if x <= 0 {
			return def
		}
	case int:
		if x <= 0 {
			return def
		}
	case string:
		if x == "" {
			return def
		}
	}
	return v
}

// rawYAML is a scalar yamlFlow writes as it is: on, off and severities
// (which yaml.v3 would quote, as YAML 1.1 booleans).
type rawYAML string

// yamlFlow writes a value on one line: a quoted or plain scalar, or a
// flow-style list.
func yamlFlow(v any) string {
	if r, ok := v.(rawYAML); ok {
		return string(r)
	}
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	n.Style |= yaml.FlowStyle
	out, err := yaml.Marshal(n)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(out))
}

// configText is what config init writes. Every setting is commented out
// (so the file changes nothing) and shows the built-in default; lines
// ending in "# example" show a value to adapt, where there is no default.
// Prose lines start with a capital letter; a test uncomments the setting
// lines and checks that they parse to exactly the defaults.
const configText = `# lockaudit configuration. lockaudit vet, audit, preflight and probe find
# this file by walking up from the working directory; -config FILE names
# another. Flags win over it. Every setting below is commented out and shows
# its default, so this file changes nothing until you uncomment a line.
# Check it, and see what is in effect: lockaudit config check
# Reference: docs/config.md; JSON Schema for editors: docs/lockaudit.schema.json
version: 1

# The server releases the fleet runs, or will run after the upgrade, one or
# a list: LA112 reports a command that any of them lacks; preflight checks
# each. Known: {{.KnownTargets}}.
# target: {{flow .Target}}

# Rules by ID or name (lockaudit rules): on, off, or a severity (error,
# warning, info). Every rule is on at its catalog severity by default.
# rules:  # example
#   LA110: warning  # example
#   fence-check-not-strict: off  # example

# Regular expressions for lock-key text (LA103, LA114; what makes a SET NX a
# lock for LA107 and LA110; the keys lockaudit scan checks). A list here
# replaces the default.
# lock_keys: {{flow .LockKeys}}

# Regular expressions for the keys of fencing counters (LA109, LA110, LA113).
# A list here replaces the default.
# fence_keys: {{flow .FenceKeys}}

# Regular expressions for SQL columns that hold the fence (LA111). A list
# here replaces the default.
# fence_columns: {{flow .FenceColumns}}

# Writes to the protected resource (LA110, LA111), fully qualified. A list
# here is added to the built-in writers:
{{- range .Writers}}
#   {{.}}
{{- end}}
# writers:  # example
#   - 'example.com/orders/repo.SaveInvoice'  # example

# Defaults of lockaudit probe and audit; flags win. Addresses are HOST:PORT
# (port 6379, Sentinel 26379, when left out). The password is never read
# from this file: set LOCKAUDIT_PASSWORD or password_file.
# probe:
#   addrs: [10.0.0.1:6379]  # example
#   sentinel: [10.0.0.9:26379, 10.0.0.10:26379]  # example
#   master: mymaster  # example
#   user: probe  # example
#   password_file: /run/secrets/valkey-probe  # example
#   tls:
#     enabled: false
#     ca: /etc/ssl/valkey-ca.pem  # example
#     cert: /etc/ssl/probe.pem  # example
#     key: /etc/ssl/probe-key.pem  # example
#     server_name: valkey.internal  # example
#   timeout: {{.Timeout}}
#   deadline: {{.Deadline}}
#   parallel: {{.Parallel}}
#   uses: {{flow .Uses}}
#   skew: {{.Skew}}

# Defaults of lockaudit scan (read-only): lock keys (lock_keys) with no TTL
# (LA211) or a TTL longer than max_lease (LA212; not checked by default).
# rate and count bound the load on each node: keys per second (0: no limit)
# and SCAN's COUNT.
# scan:
#   max_lease: 10m  # example
#   rate: {{.ScanRate}}
#   count: {{.ScanCount}}

# Defaults of lockaudit conform, which writes scratch keys (only with
# -write-scratch-key): they start with prefix and expire after ttl.
# conform:
#   prefix: {{flow .ConformPrefix}}
#   ttl: {{.ConformTTL}}

# What the report of lockaudit audit and preflight says about its
# engagement (all of it is kept in the JSON report); -title, -client,
# -system, -environment, -author and -notes win. notes is a Markdown file
# in this file's folder (no absolute path, no .., no link out of it).
# report:
#   title: 'Lock audit: checkout'  # example
#   client: ACME Corp  # example
#   system: checkout  # example
#   environment: production  # example
#   author: Jane Doe  # example
#   notes: audit-notes.md  # example
`

// configTemplate is configText with the real defaults filled in.
func configTemplate() string {
	t := template.Must(template.New("config").Funcs(template.FuncMap{"flow": yamlFlow}).Parse(configText))
	var b strings.Builder
	err := t.Execute(&b, map[string]any{
		"KnownTargets":  strings.Join(rules.KnownTargets(), ", "),
		"Target":        []string{settings.DefaultTarget},
		"LockKeys":      settings.DefaultLockKeys,
		"FenceKeys":     settings.DefaultFenceKeys,
		"FenceColumns":  settings.DefaultFenceColumns,
		"Writers":       settings.DefaultWriters,
		"Timeout":       probe.DefaultTimeout,
		"Deadline":      probe.DefaultDeadline,
		"Parallel":      probe.DefaultParallel,
		"Uses":          probe.DefaultUses,
		"Skew":          probe.DefaultSkew,
		"ScanRate":      scan.DefaultRate,
		"ScanCount":     scan.DefaultCount,
		"ConformPrefix": conform.DefaultPrefix,
		"ConformTTL":    conform.DefaultTTL,
	})
	if err != nil {
		panic(err) // a defect in configText, caught by every test that writes it
	}
	return b.String()
}

// configErrors formats a config's load errors for the command line: one
// error as it is, several as a count and one indented line each.
func configErrors(err error) string {
	list := yamlstrict.List(err)
	if len(list) <= 1 {
		return "config: " + err.Error()
	}
	lines := make([]string, len(list))
	for i, e := range list {
		lines[i] = "  " + e.Error()
	}
	return fmt.Sprintf("config: %s:\n%s", report.Plural(len(list), "mistake"), strings.Join(lines, "\n"))
}
