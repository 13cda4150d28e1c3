package syntax

import (
	"go/ast"
	"go/token"
	"go/types"
)

// tree is the package's parent links and declarations, built in one walk.
type tree struct {
	parent  map[ast.Node]ast.Node
	uses    map[types.Object][]*ast.Ident
	calls   map[token.Pos]*ast.CallExpr // the outermost call starting at a position
	params  map[types.Object]bool       // parameters and receivers
	results map[types.Object]bool       // named results
}

func (x *Index) tree() *tree {
	x.treeOnce.Do(func() { x.t = x.buildTree() })
	return x.t
}

func (x *Index) buildTree() *tree {
	t := &tree{
		parent:  map[ast.Node]ast.Node{},
		uses:    map[types.Object][]*ast.Ident{},
		calls:   map[token.Pos]*ast.CallExpr{},
		params:  map[types.Object]bool{},
		results: map[types.Object]bool{},
	}
	for _, f := range x.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				t.parent[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Recv != nil {
					for _, f := range n.Recv.List {
						for _, name := range f.Names {
							if obj := x.TypesInfo.Defs[name]; obj != nil {
								t.params[obj] = true
							}
						}
					}
				}
			case *ast.FuncType:
				for i, fl := range []*ast.FieldList{n.Params, n.Results} {
					if fl == nil {
						continue
					}
					for _, f := range fl.List {
						for _, name := range f.Names {
							if obj := x.TypesInfo.Defs[name]; obj != nil {
								if i == 0 {
									t.params[obj] = true
								} else {
									t.results[obj] = true
								}
							}
						}
					}
				}
			case *ast.CallExpr:
				if old := t.calls[n.Pos()]; old == nil || n.End() > old.End() {
					t.calls[n.Pos()] = n
				}
			case *ast.Ident:
				if obj, ok := x.TypesInfo.Uses[n].(*types.Var); ok {
					t.uses[obj] = append(t.uses[obj], n)
				}
			}
			return true
		})
	}
	return t
}

// Parent returns n's parent node, or nil.
func (x *Index) Parent(n ast.Node) ast.Node { return x.tree().parent[n] }

// Up returns the parent of n, skipping parentheses, and the child on the
// path (n or the outermost parenthesis around it).
func (x *Index) Up(n ast.Node) (parent, child ast.Node) {
	child = n
	p := x.Parent(n)
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return p, child
		}
		child, p = pe, x.Parent(pe)
	}
}

// FuncOf returns the function declaration holding n, or nil.
func (x *Index) FuncOf(n ast.Node) *ast.FuncDecl {
	for ; n != nil; n = x.Parent(n) {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// EnclosingFunc returns the innermost FuncDecl or FuncLit holding n.
func (x *Index) EnclosingFunc(n ast.Node) ast.Node {
	for p := x.Parent(n); p != nil; p = x.Parent(p) {
		switch p.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return p
		}
	}
	return nil
}

// Uses returns the identifiers that refer to a variable.
func (x *Index) Uses(obj types.Object) []*ast.Ident { return x.tree().uses[obj] }

// Decl returns the declaration of a function of the package, or nil. It
// reads only the files' top-level declarations, not the tree.
func (x *Index) Decl(fn *types.Func) *ast.FuncDecl {
	x.declsOnce.Do(func() {
		x.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range x.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if fn, ok := x.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						x.decls[fn] = fd
					}
				}
			}
		}
	})
	return x.decls[fn]
}

// CallAt returns the outermost call expression starting at pos.
func (x *Index) CallAt(pos token.Pos) *ast.CallExpr { return x.tree().calls[pos] }

// IsParam reports a parameter or receiver.
func (x *Index) IsParam(obj types.Object) bool { return x.tree().params[obj] }

// IsResult reports a named result.
func (x *Index) IsResult(obj types.Object) bool { return x.tree().results[obj] }

// RecvTypeName is the name of a receiver type: T, *T, T[P], (T); "" for
// any other expression.
func RecvTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
