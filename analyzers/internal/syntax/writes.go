package syntax

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// WriteKind says how a variable gets a value.
type WriteKind int

const (
	Define WriteKind = iota // x := e, var x = e
	Assign                  // x = e
	Zero                    // var x T (the zero value), or a //go:embed variable
	Range                   // for k, v := range e (Rhs is e, Idx 0 key, 1 value)
	Loop                    // defined in a for statement's init (a loop counter)
	Other                   // x += e, x++: the value cannot be followed
	AddrOf                  // &x: the variable may be written through the pointer
)

// Write is one place a variable (or struct field) gets its value.
type Write struct {
	Kind WriteKind
	// Rhs is the assigned expression (nil for Zero, Loop, Other); for a
	// multi-value call (x, err := f()) the call, with Idx the result index.
	Rhs ast.Expr
	Idx int // the result index of a multi-value Rhs, or the range position; -1 otherwise
	Pos token.Pos
	// Embed is the //go:embed pattern of a package-level variable declared
	// without a value (its file is the one holding Pos).
	Embed string
}

// Value is the one expression the write gives the variable: Rhs of a
// Define or Assign of one value; nil otherwise.
func (w Write) Value() ast.Expr {
	if (w.Kind == Define || w.Kind == Assign) && w.Idx < 0 {
		return w.Rhs
	}
	return nil
}

// writes is the package's variable writes, built in one walk.
type writes struct {
	all   map[types.Object][]Write
	addr  map[types.Object]bool            // &x: written through a pointer we cannot see
	calls map[types.Object][]*ast.CallExpr // x.M(...) calls made on a variable, in source order
	inits []*ast.FuncDecl                  // func init() declarations, for InInit
	lits  map[types.Object][]Write         // a struct field's values in composite literals
}

func (x *Index) writes() *writes {
	x.writesOnce.Do(func() { x.w = x.buildWrites() })
	return x.w
}

func (x *Index) buildWrites() *writes {
	w := &writes{all: map[types.Object][]Write{}, addr: map[types.Object]bool{}, calls: map[types.Object][]*ast.CallExpr{}, lits: map[types.Object][]Write{}}
	add := func(obj types.Object, wr Write) { w.all[obj] = append(w.all[obj], wr) }
	x.Inspector().Preorder([]ast.Node{
		(*ast.AssignStmt)(nil), (*ast.GenDecl)(nil), (*ast.RangeStmt)(nil), (*ast.ForStmt)(nil),
		(*ast.IncDecStmt)(nil), (*ast.CallExpr)(nil), (*ast.UnaryExpr)(nil), (*ast.FuncDecl)(nil),
		(*ast.CompositeLit)(nil),
	}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CompositeLit:
			x.fieldInits(w, n)
		case *ast.FuncDecl:
			if n.Recv == nil && n.Name.Name == "init" {
				w.inits = append(w.inits, n)
			}
		case *ast.AssignStmt:
			kind := Assign
			switch n.Tok {
			case token.DEFINE:
				kind = Define
			case token.ASSIGN:
			default: // op-assign
				for _, l := range n.Lhs {
					if obj := x.lhsObj(l); obj != nil {
						add(obj, Write{Kind: Other, Idx: -1, Pos: n.Pos()})
					}
				}
				return
			}
			for i, l := range n.Lhs {
				obj := x.lhsObj(l)
				if obj == nil {
					continue
				}
				wr := Write{Kind: kind, Idx: -1, Pos: n.Pos()}
				if len(n.Lhs) == len(n.Rhs) {
					wr.Rhs = n.Rhs[i]
				} else if len(n.Rhs) == 1 {
					wr.Rhs, wr.Idx = n.Rhs[0], i
				}
				add(obj, wr)
			}
		case *ast.GenDecl:
			if n.Tok != token.VAR {
				return
			}
			for _, s := range n.Specs {
				vs := s.(*ast.ValueSpec)
				embed := embedPattern(n.Doc, vs.Doc)
				for i, name := range vs.Names {
					obj := x.TypesInfo.Defs[name]
					if obj == nil {
						continue
					}
					wr := Write{Kind: Define, Idx: -1, Pos: name.Pos()}
					switch {
					case len(vs.Values) == 0:
						wr.Kind, wr.Embed = Zero, embed
					case len(vs.Values) == len(vs.Names):
						wr.Rhs = vs.Values[i]
					default:
						wr.Rhs, wr.Idx = vs.Values[0], i
					}
					add(obj, wr)
				}
			}
		case *ast.ForStmt:
			// A variable defined in the init is a loop counter. This is
			// recorded besides the init's own :=.
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					if obj := x.lhsObj(l); obj != nil {
						add(obj, Write{Kind: Loop, Idx: -1, Pos: n.Pos()})
					}
				}
			}
		case *ast.RangeStmt:
			for i, e := range []ast.Expr{n.Key, n.Value} {
				if obj := x.lhsObj(e); obj != nil {
					add(obj, Write{Kind: Range, Rhs: n.X, Idx: i, Pos: n.Pos()})
				}
			}
		case *ast.IncDecStmt:
			if obj := x.lhsObj(n.X); obj != nil {
				add(obj, Write{Kind: Other, Idx: -1, Pos: n.Pos()})
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
					if o, ok := x.ObjOf(id).(*types.Var); ok {
						w.calls[o] = append(w.calls[o], n)
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if obj := x.lhsObj(n.X); obj != nil {
					w.addr[obj] = true
					add(obj, Write{Kind: AddrOf, Idx: -1, Pos: n.Pos()})
				}
			}
		}
	})
	return w
}

// fieldInits records the values a struct literal gives its fields (keyed
// or positional).
func (x *Index) fieldInits(w *writes, lit *ast.CompositeLit) {
	t := x.TypesInfo.TypeOf(lit)
	if t == nil {
		return
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				if f, ok := x.TypesInfo.Uses[id].(*types.Var); ok && f.IsField() {
					w.lits[f] = append(w.lits[f], Write{Kind: Define, Rhs: kv.Value, Idx: -1, Pos: kv.Pos()})
				}
			}
			continue
		}
		if i < st.NumFields() {
			w.lits[st.Field(i)] = append(w.lits[st.Field(i)], Write{Kind: Define, Rhs: el, Idx: -1, Pos: el.Pos()})
		}
	}
}

// lhsObj is the variable (or struct field) an assignment target names.
func (x *Index) lhsObj(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return nil
		}
		if obj := x.TypesInfo.Defs[e]; obj != nil {
			return obj
		}
		if obj, ok := x.TypesInfo.Uses[e].(*types.Var); ok {
			return obj
		}
	case *ast.SelectorExpr:
		if sel := x.TypesInfo.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			return sel.Obj()
		}
		if obj, ok := x.TypesInfo.Uses[e.Sel].(*types.Var); ok {
			return obj
		}
	}
	return nil
}

// Target is the variable or field an assignment target names (x, s.f); nil
// for _ and anything else.
func (x *Index) Target(e ast.Expr) types.Object { return x.lhsObj(e) }

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

// Writes returns every write of obj in the package, in source order
// (declarations, assignments, x++, &x; a for statement's init is recorded
// as Loop besides its Define).
func (x *Index) Writes(obj types.Object) []Write { return x.writes().all[obj] }

// FieldInits returns the values composite literals of the package give a
// struct field (T{f: e} and positional T{e, ...}), in source order; Writes
// has its assignments.
func (x *Index) FieldInits(field *types.Var) []Write { return x.writes().lits[field] }

// AddrTaken reports whether &obj appears: the variable may be written
// through a pointer.
func (x *Index) AddrTaken(obj types.Object) bool { return x.writes().addr[obj] }

// Calls returns the method calls made on a variable (v.M(...)), in source
// order: glide's opts.SetExpiry(...), radix v4's p.Append(...).
func (x *Index) Calls(obj types.Object) []*ast.CallExpr { return x.writes().calls[obj] }

// Single returns the one write that gives a variable its value, when it
// gets exactly one: a variable of this package, not a field, whose address
// is never taken, written by exactly one declaration or assignment of one
// value (x := e; var x = e; var x T then x = e, read as e), or only
// declared (var x T: the Zero write). Parameters, results, fields,
// variables of other packages, loop variables and variables written twice
// (or by x++, x += e, a tuple, a range) have none. This is the one
// definition of "single-valued" every layer uses.
func (x *Index) Single(obj types.Object) (Write, bool) {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Pkg() != x.Pkg || x.AddrTaken(v) {
		return Write{}, false
	}
	var one, zero *Write
	for i, w := range x.Writes(v) {
		switch {
		case w.Kind == Zero && zero == nil:
			zero = &x.Writes(v)[i]
		case w.Value() != nil && one == nil:
			one = &x.Writes(v)[i]
		default:
			return Write{}, false
		}
	}
	switch {
	case one != nil:
		return *one, true
	case zero != nil:
		return *zero, true
	}
	return Write{}, false
}

// SingleValue is the expression a single-valued variable (Single) is given;
// nil when there is none (not single, a zero declaration, a tuple).
func (x *Index) SingleValue(obj types.Object) ast.Expr {
	w, ok := x.Single(obj)
	if !ok {
		return nil
	}
	return w.Value()
}

// Follow returns the expression a variable was set to, following
// single-valued variables (x := f(); y := x). ok is false when e is a
// variable with no single value. Other expressions, constants included,
// are returned as they are.
func (x *Index) Follow(e ast.Expr) (ast.Expr, bool) {
	for range 8 {
		e = ast.Unparen(e)
		id, isID := e.(*ast.Ident)
		if !isID || x.TypesInfo.Types[e].Value != nil {
			return e, true
		}
		obj := x.TypesInfo.Uses[id]
		if obj == nil {
			obj = x.TypesInfo.Defs[id]
		}
		if _, isVar := obj.(*types.Var); !isVar {
			return e, true
		}
		val := x.SingleValue(obj)
		if val == nil {
			return e, false
		}
		e = val
	}
	return e, false
}

// InInit reports whether a position is in package-level code or in a
// func init(): code that runs once, before any request.
func (x *Index) InInit(pos token.Pos) bool {
	for _, f := range x.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		i := sort.Search(len(f.Decls), func(i int) bool { return f.Decls[i].End() > pos })
		if i == len(f.Decls) || f.Decls[i].Pos() > pos {
			return true
		}
		fd, ok := f.Decls[i].(*ast.FuncDecl)
		return !ok || (fd.Recv == nil && fd.Name.Name == "init")
	}
	return true
}
