package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Analyzer gives every rule of a package one shared *Info. It computes
// nothing up front: each fact is built on first use and cached, so a
// package without lock code pays nothing.
var Analyzer = &analysis.Analyzer{
	Name:             "lockflow",
	Doc:              "shared data-flow facts for the LA1xx rules: key shapes, lock keys, reply use, token origin, fence taint (infrastructure; reports nothing)",
	Requires:         []*analysis.Analyzer{resolve.Analyzer, settings.Analyzer},
	Run:              run,
	ResultType:       reflect.TypeOf((*Info)(nil)),
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[resolve.Analyzer].(*resolve.Result)
	return New(pass.Fset, pass.Pkg, pass.TypesInfo, pass.Files, res.Ops, settings.Of(pass)), nil
}

// Of returns the pass's Info; the rule must require Analyzer.
func Of(pass *analysis.Pass) *Info { return pass.ResultOf[Analyzer].(*Info) }

// Info holds one package's data-flow facts. Its methods are safe for
// concurrent use (rules of one package may run in parallel).
type Info struct {
	Fset      *token.FileSet
	Pkg       *types.Package
	TypesInfo *types.Info
	Files     []*ast.File
	Ops       []*resolve.Op
	Settings  *settings.Settings // the run's options (lock-key and fence patterns, writers)

	indexOnce sync.Once
	idx       *index

	lockOnce  sync.Once
	acquired  map[string]*resolve.Op // shape key -> first SET NX/SETNX of it
	lockUsed  map[string]bool        // shape keys released, extended or checked somewhere
	fenceOnce sync.Once
	fence     *fenceFacts
}

// New builds an Info; Analyzer calls it, tests may too.
func New(fset *token.FileSet, pkg *types.Package, info *types.Info, files []*ast.File, ops []*resolve.Op, s *settings.Settings) *Info {
	return &Info{Fset: fset, Pkg: pkg, TypesInfo: info, Files: files, Ops: ops, Settings: s}
}

// assignKind says how a variable gets a value.
type assignKind int

const (
	asDefine assignKind = iota // x := e, var x = e
	asAssign                   // x = e
	asZero                     // var x T (the zero value)
	asRange                    // for k, v := range e (rhs is e, idx 0 key, 1 value)
	asLoop                     // defined in a for statement's init (a loop counter)
	asOther                    // x += e, x++, &x: the value cannot be followed
)

// assignment is one place a variable gets its value.
type assignment struct {
	kind assignKind
	rhs  ast.Expr // the assigned expression (nil for asZero, asOther)
	idx  int      // the result index when rhs is a multi-value call, or the range position; -1 otherwise
	init bool     // in package-level code or a func init()
}

// index is the package's syntax facts, built in one walk: parents,
// variable uses and assignments, and declared functions.
type index struct {
	parent  map[ast.Node]ast.Node
	uses    map[types.Object][]*ast.Ident
	assigns map[types.Object][]assignment
	decls   map[*types.Func]*ast.FuncDecl
	calls   map[token.Pos]*ast.CallExpr // the outermost call starting at a position
	params  map[types.Object]bool       // parameters and receivers
	results map[types.Object]bool       // named results
}

func (in *Info) index() *index {
	in.indexOnce.Do(func() { in.idx = buildIndex(in) })
	return in.idx
}

func buildIndex(in *Info) *index {
	x := &index{
		parent:  map[ast.Node]ast.Node{},
		uses:    map[types.Object][]*ast.Ident{},
		assigns: map[types.Object][]assignment{},
		decls:   map[*types.Func]*ast.FuncDecl{},
		calls:   map[token.Pos]*ast.CallExpr{},
		params:  map[types.Object]bool{},
		results: map[types.Object]bool{},
	}
	for _, f := range in.Files {
		var stack []ast.Node
		var decl *ast.FuncDecl
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					if _, ok := stack[len(stack)-1].(*ast.File); ok {
						decl = nil
					}
				}
				return true
			}
			if len(stack) > 0 {
				x.parent[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			init := decl == nil || (decl.Recv == nil && decl.Name.Name == "init")
			switch n := n.(type) {
			case *ast.FuncDecl:
				decl = n
				if n.Recv != nil {
					for _, f := range n.Recv.List {
						for _, name := range f.Names {
							if obj := in.TypesInfo.Defs[name]; obj != nil {
								x.params[obj] = true
							}
						}
					}
				}
				if fn, ok := in.TypesInfo.Defs[n.Name].(*types.Func); ok {
					x.decls[fn] = n
				}
			case *ast.FuncType:
				for i, fl := range []*ast.FieldList{n.Params, n.Results} {
					if fl == nil {
						continue
					}
					for _, f := range fl.List {
						for _, name := range f.Names {
							if obj := in.TypesInfo.Defs[name]; obj != nil {
								if i == 0 {
									x.params[obj] = true
								} else {
									x.results[obj] = true
								}
							}
						}
					}
				}
			case *ast.CallExpr:
				if old := x.calls[n.Pos()]; old == nil || n.End() > old.End() {
					x.calls[n.Pos()] = n
				}
			case *ast.Ident:
				if obj := in.TypesInfo.Uses[n]; obj != nil {
					if _, ok := obj.(*types.Var); ok {
						x.uses[obj] = append(x.uses[obj], n)
					}
				}
			case *ast.AssignStmt:
				x.addAssign(in, n, init)
			case *ast.ValueSpec:
				for i, name := range n.Names {
					obj := in.TypesInfo.Defs[name]
					if obj == nil {
						continue
					}
					switch {
					case len(n.Values) == 0:
						x.assigns[obj] = append(x.assigns[obj], assignment{kind: asZero, idx: -1, init: init})
					case len(n.Values) == len(n.Names):
						x.assigns[obj] = append(x.assigns[obj], assignment{kind: asDefine, rhs: n.Values[i], idx: -1, init: init})
					default:
						x.assigns[obj] = append(x.assigns[obj], assignment{kind: asDefine, rhs: n.Values[0], idx: i, init: init})
					}
				}
			case *ast.ForStmt:
				// A variable defined in the init is a loop counter. This is
				// recorded before the init's own :=; no reader of assigns
				// depends on their order.
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					for _, l := range as.Lhs {
						if obj := x.lhsObj(in, l); obj != nil {
							x.assigns[obj] = append(x.assigns[obj], assignment{kind: asLoop, idx: -1})
						}
					}
				}
			case *ast.RangeStmt:
				for i, e := range []ast.Expr{n.Key, n.Value} {
					if obj := x.lhsObj(in, e); obj != nil {
						x.assigns[obj] = append(x.assigns[obj], assignment{kind: asRange, rhs: n.X, idx: i, init: init})
					}
				}
			case *ast.IncDecStmt:
				if obj := x.lhsObj(in, n.X); obj != nil {
					x.assigns[obj] = append(x.assigns[obj], assignment{kind: asOther, idx: -1, init: init})
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if obj := x.lhsObj(in, n.X); obj != nil {
						x.assigns[obj] = append(x.assigns[obj], assignment{kind: asOther, idx: -1, init: init})
					}
				}
			}
			return true
		})
	}
	return x
}

func (x *index) addAssign(in *Info, n *ast.AssignStmt, init bool) {
	kind := asAssign
	switch n.Tok {
	case token.DEFINE:
		kind = asDefine
	case token.ASSIGN:
	default: // op-assign
		for _, l := range n.Lhs {
			if obj := x.lhsObj(in, l); obj != nil {
				x.assigns[obj] = append(x.assigns[obj], assignment{kind: asOther, idx: -1, init: init})
			}
		}
		return
	}
	for i, l := range n.Lhs {
		obj := x.lhsObj(in, l)
		if obj == nil {
			continue
		}
		a := assignment{kind: kind, idx: -1, init: init}
		if len(n.Lhs) == len(n.Rhs) {
			a.rhs = n.Rhs[i]
		} else if len(n.Rhs) == 1 {
			a.rhs, a.idx = n.Rhs[0], i
		}
		x.assigns[obj] = append(x.assigns[obj], a)
	}
}

// lhsObj is the variable (or struct field) an assignment target names.
func (x *index) lhsObj(in *Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return nil
		}
		if obj := in.TypesInfo.Defs[e]; obj != nil {
			return obj
		}
		if obj, ok := in.TypesInfo.Uses[e].(*types.Var); ok {
			return obj
		}
	case *ast.SelectorExpr:
		if sel := in.TypesInfo.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		if obj, ok := in.TypesInfo.Uses[e.Sel].(*types.Var); ok {
			return obj
		}
	}
	return nil
}

// Parent returns n's parent node, or nil.
func (in *Info) Parent(n ast.Node) ast.Node { return in.index().parent[n] }

// FuncOf returns the function declaration holding n, or nil.
func (in *Info) FuncOf(n ast.Node) *ast.FuncDecl {
	x := in.index()
	for ; n != nil; n = x.parent[n] {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// objOf returns the variable an identifier or selector refers to.
func (in *Info) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if obj := in.TypesInfo.Uses[e]; obj != nil {
			return obj
		}
		return in.TypesInfo.Defs[e]
	case *ast.SelectorExpr:
		if sel := in.TypesInfo.Selections[e]; sel != nil {
			return sel.Obj()
		}
		return in.TypesInfo.Uses[e.Sel]
	}
	return nil
}

// isPkgLevel reports whether obj is declared at package level.
func (in *Info) isPkgLevel(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// singleValue returns the one expression a variable is ever given, when it
// is given exactly one (a local := once, or a package-level var initialised
// once and never assigned), and never has its address taken. Parameters,
// struct fields and reassigned variables give nil.
func (in *Info) singleValue(obj types.Object) ast.Expr {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || (v.Pkg() != nil && v.Pkg() != in.Pkg) {
		return nil
	}
	var val ast.Expr
	for _, a := range in.index().assigns[obj] {
		switch a.kind {
		case asZero:
		case asDefine, asAssign:
			if val != nil || a.idx >= 0 {
				return nil
			}
			val = a.rhs
		default:
			return nil
		}
	}
	return val
}

func (in *Info) line(p token.Pos) int { return in.Fset.Position(p).Line }

// At renders a position for a message: the file's base name and the line
// ("a.go:12"), so a message names the other end of a finding.
func (in *Info) At(p token.Pos) string {
	pos := in.Fset.Position(p)
	return fmt.Sprintf("%s:%d", filepath.Base(pos.Filename), pos.Line)
}
