package resolve

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
)

// assignment is one write of a variable: its value (nil when the write is
// not a plain value: a tuple, a range, x++, x += ...), or the zero value of
// a declaration without initialiser.
type assignment struct {
	rhs  ast.Expr
	zero bool
	pos  token.Pos
	// embed is the //go:embed pattern of a package-level string variable
	// (its file is the one holding pos).
	embed string
}

// assigns indexes every write of every variable of the package, lazily, so
// an identifier can be followed to its single assignment.
type assigns struct {
	writes map[types.Object][]assignment
	addr   map[types.Object]bool // &x: written through a pointer we cannot see
	// calls holds the method calls made on a variable (x.M(...)), in
	// source order: glide's opts.SetExpiry(...), radix v4's p.Append(...).
	calls map[types.Object][]*ast.CallExpr
}

func (r *resolver) assigns() *assigns {
	if r.idx != nil {
		return r.idx
	}
	a := &assigns{writes: map[types.Object][]assignment{}, addr: map[types.Object]bool{}, calls: map[types.Object][]*ast.CallExpr{}}
	r.idx = a
	objOf := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		if o := r.info.Defs[id]; o != nil {
			return o
		}
		return r.info.Uses[id]
	}
	// The inspector the walk in run uses: no second traversal of the files.
	r.insp.Preorder([]ast.Node{
		(*ast.AssignStmt)(nil), (*ast.GenDecl)(nil), (*ast.RangeStmt)(nil),
		(*ast.IncDecStmt)(nil), (*ast.CallExpr)(nil), (*ast.UnaryExpr)(nil),
	}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				o := objOf(lhs)
				if o == nil {
					continue
				}
				w := assignment{pos: n.Pos()}
				if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) {
					w.rhs = n.Rhs[i]
				}
				a.writes[o] = append(a.writes[o], w)
			}
		case *ast.GenDecl:
			if n.Tok != token.VAR {
				return
			}
			for _, s := range n.Specs {
				vs := s.(*ast.ValueSpec)
				embed := embedPattern(n.Doc, vs.Doc)
				for i, name := range vs.Names {
					o := r.info.Defs[name]
					if o == nil {
						continue
					}
					w := assignment{pos: name.Pos(), embed: embed}
					switch {
					case len(vs.Values) == len(vs.Names):
						w.rhs = vs.Values[i]
					case len(vs.Values) == 0:
						w.zero = embed == ""
					}
					a.writes[o] = append(a.writes[o], w)
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if o := objOf(e); o != nil {
					a.writes[o] = append(a.writes[o], assignment{pos: n.Pos()})
				}
			}
		case *ast.IncDecStmt:
			if o := objOf(n.X); o != nil {
				a.writes[o] = append(a.writes[o], assignment{pos: n.Pos()})
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if o, ok := objOf(sel.X).(*types.Var); ok {
					a.calls[o] = append(a.calls[o], n)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if o := objOf(n.X); o != nil {
					a.addr[o] = true
				}
			}
		}
	})
	return a
}

func isAppendTo(info *types.Info, c *ast.CallExpr, o types.Object) bool {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok || len(c.Args) == 0 {
		return false
	}
	if _, ok := info.Uses[id].(*types.Builtin); !ok || id.Name != "append" {
		return false
	}
	first, ok := ast.Unparen(c.Args[0]).(*ast.Ident)
	return ok && info.Uses[first] == o
}

func embedPattern(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g == nil {
			continue
		}
		for _, c := range g.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
				return strings.TrimSpace(rest)
			}
		}
	}
	return ""
}

// single returns the only write of the variable id names, when there is
// exactly one and the variable's address is never taken. Parameters,
// results and variables of other packages have no visible write.
func (r *resolver) single(id *ast.Ident) (assignment, bool) {
	o, ok := r.info.Uses[id].(*types.Var)
	if !ok {
		if d, ok2 := r.info.Defs[id].(*types.Var); ok2 {
			o, ok = d, true
		}
	}
	if !ok || o.Pkg() != r.pass.Pkg || o.IsField() {
		return assignment{}, false
	}
	a := r.assigns()
	ws := a.writes[o]
	if len(ws) != 1 || a.addr[o] {
		return assignment{}, false
	}
	return ws[0], true
}

// follow returns the expression a variable was set to, following single
// assignments (x := f(); y := x). ok is false when e is an identifier with
// no single visible assignment. Non-identifiers are returned as they are.
func (r *resolver) follow(e ast.Expr) (ast.Expr, bool) {
	for range 8 {
		e = ast.Unparen(e)
		id, isID := e.(*ast.Ident)
		if !isID || r.info.Types[e].Value != nil {
			return e, true
		}
		if _, isVar := r.info.Uses[id].(*types.Var); !isVar {
			return e, true
		}
		w, ok := r.single(id)
		if !ok || w.rhs == nil {
			return e, false
		}
		e = w.rhs
	}
	return e, false
}

// constValue evaluates e to a constant, following single assignments of
// local and package-level variables and zero-value declarations.
func (r *resolver) constValue(e ast.Expr) constant.Value {
	return r.constDepth(e, 0)
}

func (r *resolver) constDepth(e ast.Expr, depth int) constant.Value {
	if depth > 8 || e == nil {
		return nil
	}
	e = ast.Unparen(e)
	if tv, ok := r.info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	switch x := e.(type) {
	case *ast.Ident:
		w, ok := r.single(x)
		if !ok {
			return nil
		}
		switch {
		case w.rhs != nil:
			return r.constDepth(w.rhs, depth+1)
		case w.zero:
			return zeroValue(r.info.TypeOf(x))
		case w.embed != "":
			return r.embedded(w)
		}
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return nil
		}
		l, rr := r.constDepth(x.X, depth+1), r.constDepth(x.Y, depth+1)
		if l == nil || rr == nil || l.Kind() != constant.String || rr.Kind() != constant.String {
			return nil
		}
		return constant.BinaryOp(l, token.ADD, rr)
	case *ast.CallExpr:
		// string(x) / []byte(x) conversions of a constant
		if tv, ok := r.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return r.constDepth(x.Args[0], depth+1)
		}
	}
	return nil
}

func zeroValue(t types.Type) constant.Value {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	switch {
	case b.Info()&types.IsString != 0:
		return constant.MakeString("")
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0)
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	}
	return nil
}

// embedded reads the file a //go:embed string variable holds (a single
// file name; patterns with globs or directories are not followed).
func (r *resolver) embedded(w assignment) constant.Value {
	f := r.pass.Fset.File(w.pos)
	if strings.ContainsAny(w.embed, "*?[ \"`") || f == nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(f.Name()), filepath.FromSlash(w.embed)))
	if err != nil {
		return nil
	}
	return constant.MakeString(string(data))
}

// str evaluates e to a constant string.
func (r *resolver) str(e ast.Expr) (string, bool) {
	v := r.constValue(e)
	if v == nil || v.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(v), true
}

// intVal evaluates e to a constant integer.
func (r *resolver) intVal(e ast.Expr) (int64, bool) {
	v := r.constValue(e)
	if v == nil {
		return 0, false
	}
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// boolVal evaluates e to a constant bool.
func (r *resolver) boolVal(e ast.Expr) (bool, bool) {
	v := r.constValue(e)
	if v == nil || v.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(v), true
}

// sliceElems returns the elements of a []T{...} literal e (following a
// single assignment); ok is false when they are not visible.
func (r *resolver) sliceElems(e ast.Expr) ([]ast.Expr, bool) {
	e, ok := r.follow(e)
	if !ok {
		return nil, false
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if _, kv := el.(*ast.KeyValueExpr); kv {
				return nil, false
			}
		}
		return x.Elts, true
	case *ast.Ident:
		if x.Name == "nil" {
			return nil, true
		}
	}
	return nil, false
}
