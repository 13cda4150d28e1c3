package resolve

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// Analyzer resolves every command-sending call in a package once; rule
// analyzers require it and read its *Result.
var Analyzer = &analysis.Analyzer{
	Name:             "lockcalls",
	Doc:              "resolve Valkey/Redis client calls to logical commands (infrastructure for the LA1xx rules; reports nothing)",
	Requires:         []*analysis.Analyzer{inspect.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Result)(nil)),
	RunDespiteErrors: true,
}

// run is implemented per client in this package (see issue 2).
func run(pass *analysis.Pass) (any, error) {
	return &Result{}, nil
}
