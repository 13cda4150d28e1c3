// Package golangci is lockaudit's golangci-lint v2 module plugin. Importing
// it registers the linter "lockaudit" with
// github.com/golangci/plugin-module-register; `golangci-lint custom` (or a
// main package that blank-imports this one and calls golangci-lint's
// commands.Execute) builds a golangci-lint that runs every lockaudit rule.
//
// Settings are those of .lockaudit.yaml — the same keys, types and
// validation (rules/config), under linters.settings.custom.lockaudit.settings:
//
//	linters:
//	  default: none
//	  enable: [lockaudit]
//	  settings:
//	    custom:
//	      lockaudit:
//	        type: module
//	        description: distributed-lock checks for Valkey/Redis
//	        settings:
//	          target: [valkey-8.1, valkey-9.0]
//	          rules: {LA110: off}
//	          lock_keys: ['^mutex:']
//	          writers: ['example.com/orders/repo.SaveInvoice']
//
// An unknown key, a wrong type or an unknown rule ID makes New fail, naming
// the key. The keys that mean nothing to golangci-lint are accepted and
// ignored: rule severities (golangci-lint has its own severity settings)
// and probe (the live probe is not a linter).
//
// golangci-lint starts each message with the analyzer's name, which is the
// rule ID: "file:line:col: LA103: plain DEL ... (lockaudit)". //nolint:lockaudit
// silences every rule on a line; lockaudit's own //lockaudit:ignore RULE --
// reason and //lockaudit:file-ignore RULE -- reason directives work too
// (per rule, reason required), and malformed directives are LA100 findings.
// Stale directives are reported by `lockaudit vet` only (see driver.Unit).
package golangci

import (
	"errors"
	"fmt"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"gopkg.in/yaml.v3"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/rules/config"
	"github.com/lockaudit/lockaudit/rules/yamlstrict"
)

// Name is the linter's name in .golangci.yml and in its output.
const Name = "lockaudit"

// where names the settings in errors.
const where = ".golangci.yml linters.settings.custom.lockaudit.settings"

func init() { register.Plugin(Name, New) }

type plugin struct{ setup *analyzers.Setup }

// New reads the settings (nil or empty: the defaults), validates them as
// .lockaudit.yaml is validated, and keeps them for the analyzers it builds.
func New(raw any) (register.LinterPlugin, error) {
	f, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	setup, err := analyzers.Configure(f, analyzers.Inputs{})
	if err != nil {
		return nil, err // worded with where: ".golangci.yml linters.settings...: target: ..."
	}
	return &plugin{setup: setup}, nil
}

// Decode turns golangci-lint's decoded settings (maps, lists, scalars)
// into a config.File through the config file's own parser, so the plugin
// accepts exactly what .lockaudit.yaml accepts. Errors name the key; line
// numbers are dropped, because golangci-lint does not pass them on.
func Decode(raw any) (*config.File, error) {
	if raw == nil {
		return &config.File{Path: where}, nil
	}
	data, err := yaml.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	f, err := config.Parse(where, data)
	if err != nil {
		for _, e := range yamlstrict.List(err) {
			var ye *yamlstrict.Error
			if errors.As(e, &ye) {
				ye.Line = 0
			}
		}
		return nil, err
	}
	return f, nil
}

// BuildAnalyzers returns the selected rule analyzers, wrapped so that they
// read the plugin's settings and directives apply (golangci-lint itself
// puts the rule ID, the analyzer's name, in front of each message).
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return driver.Unit(analyzers.Selected(p.setup.Selected), driver.UnitOptions{Settings: p.setup.Settings, Off: p.setup.Off()}), nil
}

// GetLoadMode: the rules need type information.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
