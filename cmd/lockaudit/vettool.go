package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/analyzers/settings"
	"github.com/lockaudit/lockaudit/rules/config"
)

// isVetTool reports whether the arguments follow go vet's unitchecker
// protocol (-V=full, -flags, or a single *.cfg file after analyzer flags).
func isVetTool(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-V=full", "-flags":
		return true
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

// runVetTool makes the binary a go vet tool:
//
//	go vet -vettool=$(command -v lockaudit) ./...
//	go vet -vettool=$(command -v lockaudit) -LA112.target=valkey-8.1 ./...
//
// unitchecker implements the protocol (-V=full, -flags, one *.cfg per
// package) and exits itself. Plain vet output has no category, so each
// message starts with its rule ID, as in `lockaudit vet`.
//
// go vet caches each package's result under the tool's -V=full identity,
// which a changed .lockaudit.yaml would not change: the identity printed
// here therefore hashes the binary (as unitchecker does) and the config file
// found from go vet's working directory, so editing that file re-runs the
// analysis. (A config in a subdirectory below go vet's working directory is
// not part of the identity; `go clean -cache` forgets stale results then.)
//
// Each package's run reads the .lockaudit.yaml found walking up from the
// package's directory (targets, rules turned off, patterns, writers;
// severities mean nothing to go vet), with go vet's own -LAnnn.option flags
// winning over it, and applies //lockaudit directives inside the analyzers
// (driver.Unit: suppressed diagnostics are dropped, malformed directives are
// LA100; stale ones are not reported in this mode).
func runVetTool(args []string) int {
	if args[0] == "-V=full" {
		if err := vetToolVersion(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "lockaudit: %v\n", err)
			return 1
		}
		return 0
	}
	as, err := vetToolAnalyzers(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockaudit: %v\n", err)
		return 1
	}
	unitchecker.Main(as...)
	return 0 // not reached: unitchecker.Main exits
}

// vetToolAnalyzers loads the package's config (for a *.cfg run) and returns
// the wrapped analyzers.
func vetToolAnalyzers(args []string) ([]*analysis.Analyzer, error) {
	opts := driver.UnitOptions{Settings: settings.Default(), Edit: driver.PrefixRuleID}
	if cfg := args[len(args)-1]; strings.HasSuffix(cfg, ".cfg") {
		f, err := vetToolConfig(cfg)
		if err != nil {
			return nil, err
		}
		keep, enabled := explicitVetFlags(args[:len(args)-1])
		setup, err := analyzers.Configure(f, analyzers.Inputs{Keep: keep, Enabled: enabled, AllowNone: true})
		if err != nil {
			return nil, fmt.Errorf("config: %v", err)
		}
		opts.Settings, opts.Off = setup.Settings, setup.Off()
	}
	// Every analyzer, so that go vet offers every rule's flags; the rules
	// turned off report nothing (Off).
	return driver.Unit(analyzers.All(), opts), nil
}

// vetToolConfig finds the .lockaudit.yaml for the package go vet asks
// about, walking up from the package's directory (the cfg's Dir; go vet
// also runs the tool there).
func vetToolConfig(cfgPath string) (*config.File, error) {
	dir := ""
	if f, err := os.Open(cfgPath); err == nil {
		var cfg struct{ Dir string }
		data, _ := io.ReadAll(f)
		f.Close()
		if json.Unmarshal(data, &cfg) == nil {
			dir = cfg.Dir
		}
	}
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	return loadConfig(dir, "")
}

// explicitVetFlags reads go vet's analyzer flags: the options given
// (-LA112.target=... -> "target"), which the config must not override, and
// the rules enabled by name (-LA110, -LA110=true), which the config must not
// turn off.
func explicitVetFlags(args []string) (opts []string, enabled map[string]bool) {
	enabled = map[string]bool{}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if _, opt, ok := strings.Cut(name, "."); ok {
			opts = append(opts, opt)
			continue
		}
		if !hasVal || val == "true" || val == "1" {
			enabled[strings.ToUpper(name)] = true
		}
	}
	return opts, enabled
}

// vetToolVersion prints the -V=full line go vet reads the tool's identity
// from: the format of unitchecker's (progname version devel ...
// buildID=HASH), with the config file found from the working directory
// hashed in.
func vetToolVersion(w io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if dir, err := os.Getwd(); err == nil {
		if path, _ := config.Find(dir); path != "" {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "\x00config %s\x00%s", path, data)
		}
	}
	_, err = fmt.Fprintf(w, "%s version devel comments-go-here buildID=%02x\n", exe, string(h.Sum(nil)))
	return err
}
