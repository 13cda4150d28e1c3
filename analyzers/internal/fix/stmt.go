package fix

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Stmt returns the innermost statement of a block (or case clause) that
// holds n, the block's statements and its index there; stmt is nil when n
// is not inside a function body.
func (c *Ctx) Stmt(n ast.Node) (stmt ast.Stmt, list []ast.Stmt, i int) {
	for child, p := n, c.In.Parent(n); p != nil; child, p = p, c.In.Parent(p) {
		var l []ast.Stmt
		switch p := p.(type) {
		case *ast.BlockStmt:
			l = p.List
		case *ast.CaseClause:
			l = p.Body
		case *ast.CommClause:
			l = p.Body
		default:
			continue
		}
		s, ok := child.(ast.Stmt)
		if !ok {
			return nil, nil, -1
		}
		for j, x := range l {
			if x == s {
				return s, l, j
			}
		}
		return nil, nil, -1
	}
	return nil, nil, -1
}

// Up returns the parent of e, skipping parentheses, and the child on the
// path (syntax.Index.Up).
func (c *Ctx) Up(e ast.Node) (parent, child ast.Node) { return c.In.Up(e) }

// MethodOn returns the call of a method on e with no arguments (e.Err()),
// and the method's name, when e is the receiver of one.
func (c *Ctx) MethodOn(e ast.Expr) (*ast.CallExpr, string) {
	p, child := c.Up(e)
	sel, ok := p.(*ast.SelectorExpr)
	if !ok || sel.X != child {
		return nil, ""
	}
	call, ok := c.In.Parent(sel).(*ast.CallExpr)
	if !ok || call.Fun != sel || len(call.Args) != 0 {
		return nil, ""
	}
	return call, sel.Sel.Name
}

// ReplyDiscardable reports whether stmt does nothing but send call and at
// most check its error, so that deleting stmt deletes the command and
// nothing else:
//
//	call                       // or call.Err(), call.Error()
//	_ = call; _, _ = call
//	if _, err := call; err != nil { ... }   // or err := call.Err()
//
// An error checked through a variable declared outside the if (err =
// call.Err(); if err != nil) is not: the variable's later value would
// change.
func (c *Ctx) ReplyDiscardable(stmt ast.Stmt, call *ast.CallExpr) bool {
	sends := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if e == call {
			return true
		}
		if m, name := c.MethodOn(call); m != nil && e == m {
			return name == "Err" || name == "Error"
		}
		return false
	}
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		return sends(s.X)
	case *ast.AssignStmt:
		if s.Tok != token.ASSIGN || len(s.Rhs) != 1 || !sends(s.Rhs[0]) {
			return false
		}
		for _, l := range s.Lhs {
			if !isBlank(l) {
				return false
			}
		}
		return true
	case *ast.IfStmt:
		init, ok := s.Init.(*ast.AssignStmt)
		if !ok || init.Tok != token.DEFINE || len(init.Rhs) != 1 || !sends(init.Rhs[0]) || s.Else != nil {
			return false
		}
		for _, l := range init.Lhs[:len(init.Lhs)-1] {
			if !isBlank(l) {
				return false
			}
		}
		errID, ok := init.Lhs[len(init.Lhs)-1].(*ast.Ident)
		if !ok {
			return false
		}
		errObj := c.Pass.TypesInfo.Defs[errID]
		if errObj == nil || !types.Identical(errObj.Type(), types.Universe.Lookup("error").Type()) {
			return false
		}
		return c.IsErrCheck(s.Cond, errObj, token.NEQ)
	}
	return false
}

// IsErrCheck reports whether cond is `err != nil` (op NEQ) or `err == nil`
// (op EQL) for the variable errObj, either way round.
func (c *Ctx) IsErrCheck(cond ast.Expr, errObj types.Object, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op {
		return false
	}
	isErr := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && c.Pass.TypesInfo.Uses[id] == errObj
	}
	isNil := func(e ast.Expr) bool { return syntax.IsNil(c.Pass.TypesInfo, e) }
	return (isErr(b.X) && isNil(b.Y)) || (isNil(b.X) && isErr(b.Y))
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// Quiet reports whether statements can run in the same way after a command
// moves from after them to before them: they send no command (no Op of
// the package lies inside them), and every call they make is a type
// conversion, a builtin, or a standard-library function, unless it is on a
// path that leaves (a block ending in return, panic or a branch).
func (c *Ctx) Quiet(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		for _, op := range c.In.Ops {
			if op.Call != nil && s.Pos() <= op.Call.Pos() && op.Call.End() <= s.End() {
				return false
			}
		}
		ok := true
		ast.Inspect(s, func(n ast.Node) bool {
			if !ok {
				return false
			}
			switch n := n.(type) {
			case *ast.BlockStmt:
				if c.In.EndsBlock(n) {
					return false // the leaving path may do anything
				}
			case *ast.FuncLit:
				ok = false
			case *ast.CallExpr:
				if !c.harmless(n) {
					ok = false
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// harmless reports whether a call is a conversion, a builtin or a
// standard-library function or method (cannot send a command).
func (c *Ctx) harmless(call *ast.CallExpr) bool {
	if tv, ok := c.Pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		return true
	}
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	switch obj := c.Pass.TypesInfo.Uses[id].(type) {
	case *types.Builtin:
		return true
	case *types.Func:
		return obj.Pkg() != nil && !strings.Contains(strings.SplitN(obj.Pkg().Path(), "/", 2)[0], ".")
	}
	return false
}

// SameConn reports whether two ops are sent on the same client or
// connection: the same receiver expression, every name in it the same
// object, standing for a variable (syntax.Root; not a package name:
// redis.DoContext(conn, ...)).
func (c *Ctx) SameConn(a, b *resolve.Op) bool {
	ra, rb := Receiver(a.Call), Receiver(b.Call)
	if ra == nil || rb == nil || types.ExprString(ra) != types.ExprString(rb) || c.In.Root(ra) == nil {
		return false
	}
	var ia, ib []types.Object
	for _, p := range []struct {
		e    ast.Expr
		objs *[]types.Object
	}{{ra, &ia}, {rb, &ib}} {
		ast.Inspect(p.e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				*p.objs = append(*p.objs, c.Pass.TypesInfo.Uses[id])
			}
			return true
		})
	}
	if len(ia) != len(ib) {
		return false
	}
	for i := range ia {
		if ia[i] != ib[i] {
			return false
		}
	}
	return true
}

// Receiver returns the receiver expression of a method call, or nil.
func Receiver(call *ast.CallExpr) ast.Expr {
	if call == nil {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// MethodName returns the name of the method or function a call calls.
func MethodName(call *ast.CallExpr) string {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// RawName returns the index in op.Call's arguments of the command name of
// a raw command (go-redis Do, redigo Do/DoContext/DoWithTimeout and their
// package functions): the constant op.Name just before op's first key.
// ok is false for other forms, for spread arguments and for commands
// without a key.
func (c *Ctx) RawName(op *resolve.Op) (int, bool) {
	if op.Call == nil || op.Call.Ellipsis.IsValid() || op.Key() == nil {
		return 0, false
	}
	for i := 1; i < len(op.Call.Args); i++ {
		if op.Call.Args[i] == op.Key() && c.Word(op.Call.Args[i-1]) == op.Name {
			return i - 1, true
		}
	}
	return 0, false
}

// IsUpper reports whether a string literal's letters are all upper case
// (so a keyword added next to it follows its case).
func (c *Ctx) IsUpper(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok {
		return true
	}
	return lit.Value == strings.ToUpper(lit.Value)
}

// Keyword writes a command word (upper case, "PX") as a Go string literal
// for a raw command: in upper case when upper is set, else in lower case,
// so an added word follows the case of the command name next to it
// (IsUpper).
func Keyword(w string, upper bool) string {
	if upper {
		return `"` + w + `"`
	}
	return `"` + strings.ToLower(w) + `"`
}
