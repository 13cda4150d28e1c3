// Package syntax is the one index of a package's syntax that the analyzer
// layers share: who writes each variable (Writes, Single, Follow), what
// calls are made on it, each node's parent, the identifiers that use a
// variable, the declared functions, parameters and named results, the
// outermost call at a position — plus the small AST questions every layer
// asks (Root, Terminates, At). Its Analyzer builds one Index per package;
// each part is built on first use, so a package that needs none pays
// nothing.
//
// What the index cannot see: writes through pointers other than &x,
// reflection, and other packages' code. A variable it cannot follow is
// reported as not single-valued, and the layers above treat it as unknown.
package syntax

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer gives every layer of a package one *Index.
var Analyzer = &analysis.Analyzer{
	Name:             "locksyntax",
	Doc:              "index of variable writes, parents and declarations shared by the lockaudit layers (infrastructure; reports nothing)",
	Run:              run,
	ResultType:       reflect.TypeOf((*Index)(nil)),
	RunDespiteErrors: true,
}

// run builds nothing yet: the layers above run on every package a
// fact-using analysis visits, dependencies included, and most of those
// never ask (not even for the inspector).
func run(pass *analysis.Pass) (any, error) {
	return New(pass.Fset, pass.Pkg, pass.TypesInfo, pass.Files, nil), nil
}

// Of returns the pass's Index; the analyzer must require Analyzer.
func Of(pass *analysis.Pass) *Index { return pass.ResultOf[Analyzer].(*Index) }

// Index is one package's syntax facts. Its methods are safe for concurrent
// use (the analyzers of a package may run in parallel).
type Index struct {
	Fset      *token.FileSet
	Pkg       *types.Package
	TypesInfo *types.Info
	Files     []*ast.File
	insp      *inspector.Inspector
	inspOnce  sync.Once

	writesOnce sync.Once
	w          *writes
	treeOnce   sync.Once
	t          *tree
	declsOnce  sync.Once
	decls      map[*types.Func]*ast.FuncDecl
}

// New returns the Index of a package; insp may be nil (it is then built
// from files on first use).
func New(fset *token.FileSet, pkg *types.Package, info *types.Info, files []*ast.File, insp *inspector.Inspector) *Index {
	return &Index{Fset: fset, Pkg: pkg, TypesInfo: info, Files: files, insp: insp}
}

// Inspector returns the package's inspector, built on first use.
func (x *Index) Inspector() *inspector.Inspector {
	x.inspOnce.Do(func() {
		if x.insp == nil {
			x.insp = inspector.New(x.Files)
		}
	})
	return x.insp
}

// ObjOf returns the object an identifier or selector names (a field or
// method for a selector, a qualified identifier's object).
func (x *Index) ObjOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := x.TypesInfo.Uses[e]; obj != nil {
			return obj
		}
		return x.TypesInfo.Defs[e]
	case *ast.SelectorExpr:
		if sel := x.TypesInfo.Selections[e]; sel != nil {
			return sel.Obj()
		}
		return x.TypesInfo.Uses[e.Sel]
	}
	return nil
}

// IsPkgLevel reports whether obj is declared at package level.
func IsPkgLevel(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// Root returns the variable a connection-like expression stands for: x,
// *x, &x, s.field (the field), and chained calls that return their
// receiver's type (glide's b.Set(...).Incr(...)); nil for anything else,
// a package name included.
func (x *Index) Root(e ast.Expr) types.Object {
	for range 16 {
		switch v := ast.Unparen(e).(type) {
		case *ast.Ident:
			if o, ok := x.TypesInfo.Uses[v].(*types.Var); ok {
				return o
			}
			return nil
		case *ast.StarExpr:
			e = v.X
		case *ast.UnaryExpr:
			e = v.X
		case *ast.SelectorExpr:
			if sel := x.TypesInfo.Selections[v]; sel != nil && sel.Kind() == types.FieldVal {
				return sel.Obj()
			}
			return nil
		case *ast.CallExpr:
			sel, ok := ast.Unparen(v.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil
			}
			rt, at := x.TypesInfo.TypeOf(v), x.TypesInfo.TypeOf(sel.X)
			if rt == nil || at == nil || !types.Identical(rt, at) {
				return nil
			}
			e = sel.X
		default:
			return nil
		}
	}
	return nil
}

// At renders a position for a message: the file's base name and the line
// ("a.go:12"), so a message names the other end of a finding.
func (x *Index) At(p token.Pos) string {
	pos := x.Fset.Position(p)
	return fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
}

// Line returns the line of a position.
func (x *Index) Line(p token.Pos) int { return x.Fset.Position(p).Line }

// NamedOf is the named type t is, or points to, behind aliases; nil for
// any other type.
func NamedOf(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// IsNil reports the predeclared nil (not a variable that shadows it).
func IsNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// IsError reports whether t is the error type.
func IsError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsString reports a string type: string, a named type over it, or an
// untyped string constant's type (not *string or []byte); false for nil.
func IsString(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Info()&types.IsString != 0
}

// IsInt reports int or a named type over it: not another integer type,
// nor an untyped integer constant's type; false for nil.
func IsInt(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Kind() == types.Int
}

// IsInteger reports any integer type, a named type over one, or an untyped
// integer constant's type; false for nil.
func IsInteger(t types.Type) bool {
	b := basic(t)
	return b != nil && b.Info()&types.IsInteger != 0
}

// basic is t's underlying basic type, nil for nil and for any other type.
func basic(t types.Type) *types.Basic {
	if t == nil {
		return nil
	}
	b, _ := t.Underlying().(*types.Basic)
	return b
}

// IsEmptyInterface reports an interface without methods: interface{}, any,
// a named type over it, or a type parameter constrained by any; false for
// nil.
func IsEmptyInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

// IsContext reports context.Context itself, also through an alias; not a
// type declared over it or a pointer to it.
func IsContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
