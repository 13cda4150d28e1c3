package settings

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer's result is the run's *Settings; rules that read an option
// require it and call Of. On its own it answers the defaults: a run binds
// its own Settings to the analyzers it runs (analyzers/driver does, for
// every run of lockaudit, go vet and golangci-lint).
var Analyzer = &analysis.Analyzer{
	Name:       "locksettings",
	Doc:        "the analyzer options of the run (infrastructure for the LA1xx rules; reports nothing)",
	Run:        func(*analysis.Pass) (any, error) { return Default(), nil },
	ResultType: reflect.TypeOf((*Settings)(nil)),
	// RunDespiteErrors: the rules that read it run on packages with errors.
	RunDespiteErrors: true,
}

// Of returns the run's settings; the analyzer must require Analyzer.
func Of(pass *analysis.Pass) *Settings { return pass.ResultOf[Analyzer].(*Settings) }

// Bind makes c, a driver's copy of the analyzer orig, part of a run with
// settings s: if orig is Analyzer, c answers s; the options orig declares
// set s (FlagSet). Drivers copy every analyzer they run (analyzers/driver).
func (s *Settings) Bind(c, orig *analysis.Analyzer) {
	if orig == Analyzer {
		c.Run = func(*analysis.Pass) (any, error) { return s, nil }
	}
	c.Flags = s.FlagSet(&orig.Flags)
}
