package resolve

import (
	"go/ast"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Analyzer resolves every command-sending call in a package once; rule
// analyzers require it and read its *Result.
var Analyzer = &analysis.Analyzer{
	Name:             "lockcalls",
	Doc:              "resolve Valkey/Redis client calls to logical commands (infrastructure for the LA1xx rules; reports nothing)",
	Requires:         []*analysis.Analyzer{inspect.Analyzer, syntax.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Result)(nil)),
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	if !importsClient(pass) {
		return &Result{}, nil
	}
	r := newResolver(pass)
	r.insp.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if push {
			r.call(n.(*ast.CallExpr), stack)
		}
		return true
	})
	r.leftovers()
	r.resolveScripts()
	r.classifyScripts()
	ops := r.ops
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].Pos != ops[j].Pos {
			return ops[i].Pos < ops[j].Pos
		}
		return ops[i].Call.Pos() < ops[j].Call.Pos()
	})
	r.ops = ops
	r.groupTx()
	return &Result{Ops: r.ops}, nil
}

// importsClient reports whether the package depends, directly or not, on a
// package the layer knows (a client can be reached through a wrapper
// package's exported types), so that other packages cost nothing.
func importsClient(pass *analysis.Pass) bool {
	return reaches(pass.Pkg, map[*types.Package]bool{})
}

// reaches walks the import graph once per pass (seen: visited packages,
// which import no client package).
func reaches(p *types.Package, seen map[*types.Package]bool) bool {
	for _, imp := range p.Imports() {
		if seen[imp] {
			continue
		}
		seen[imp] = true
		if known(stripVendor(imp.Path())) != nil || reaches(imp, seen) {
			return true
		}
	}
	return false
}
