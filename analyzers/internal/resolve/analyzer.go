package resolve

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Analyzer resolves every command-sending call in a package once; rule
// analyzers require it and read its *Result. It exports a Summary fact for
// each wrapper of the package (wrapper.go), so it runs on the dependencies
// too — but only packages that reach a known client (the Reaches package
// fact) do any work.
var Analyzer = &analysis.Analyzer{
	Name:             "lockcalls",
	Doc:              "resolve Valkey/Redis client calls to logical commands (infrastructure for the LA1xx rules; reports nothing)",
	Requires:         []*analysis.Analyzer{syntax.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Result)(nil)),
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{(*Summary)(nil), (*Reaches)(nil), (*Embedded)(nil)},
}

func run(pass *analysis.Pass) (any, error) {
	exportEmbedded(pass)
	if !importsClient(pass) {
		return &Result{}, nil
	}
	if pass.ExportPackageFact != nil {
		pass.ExportPackageFact(&Reaches{})
	}
	r := newResolver(pass)
	r.x.Inspector().WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if push {
			r.call(n.(*ast.CallExpr), stack)
		}
		return true
	})
	r.leftovers()
	r.wrappers()
	r.resolveScripts()
	r.classifyScripts()
	r.pairedSteps()
	r.scriptValues()
	ops := r.ops
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].Pos != ops[j].Pos {
			return ops[i].Pos < ops[j].Pos
		}
		return ops[i].Call.Pos() < ops[j].Call.Pos()
	})
	r.ops = ops
	r.groupTx()
	return &Result{Ops: r.ops, Wrappers: r.wrappersOut}, nil
}

// importsClient reports whether the package depends, directly or not, on a
// package the layer knows (a client can be reached through a wrapper
// package's exported types), or declares a client interface of its own
// (port), so that other packages cost nothing. Where
// the driver passes facts, every dependency has run the layer first, so a
// direct import that is a client or has the Reaches fact decides; without
// facts the type information's import graph is walked.
func importsClient(pass *analysis.Pass) bool {
	if declaresPort(pass.Pkg) {
		return true
	}
	if pass.ImportPackageFact == nil {
		return reaches(pass.Pkg, map[*types.Package]bool{})
	}
	for _, imp := range pass.Pkg.Imports() {
		if known(stripVendor(imp.Path())) != nil || pass.ImportPackageFact(imp, new(Reaches)) {
			return true
		}
	}
	return false
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

// exportEmbedded exports an Embedded fact for each exported package-level
// string variable of a package that embeds one file into it (//go:embed
// name), client or not: the scripts of a lock are often kept in a package
// of their own that imports no client.
func exportEmbedded(pass *analysis.Pass) {
	if pass.ExportObjectFact == nil || !slices.ContainsFunc(pass.Pkg.Imports(), func(p *types.Package) bool { return p.Path() == "embed" }) {
		return
	}
	r := newResolver(pass)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, name := range spec.(*ast.ValueSpec).Names {
					v, ok := pass.TypesInfo.Defs[name].(*types.Var)
					if !ok || !v.Exported() || !syntax.IsString(v.Type()) {
						continue
					}
					w, ok := r.x.Single(v)
					if !ok || w.Embed == "" {
						continue
					}
					if text := r.embedded(w); text != nil && text.Kind() == constant.String {
						src := path.Base(pass.Pkg.Path()) + "/" + filepath.ToSlash(w.Embed)
						if pf := pass.Fset.File(w.Pos); pf != nil {
							src = filepath.Base(filepath.Dir(pf.Name())) + "/" + filepath.ToSlash(w.Embed)
						}
						pass.ExportObjectFact(v, &Embedded{Text: constant.StringVal(text), Source: src})
					}
				}
			}
		}
	}
}
