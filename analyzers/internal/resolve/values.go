package resolve

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

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

// writesOf returns a variable's assignments as resolve reads them: every
// write but the taking of its address (AddrTaken says that) and the loop
// marker of a for statement's init.
func (r *resolver) writesOf(obj types.Object) []syntax.Write {
	var out []syntax.Write
	for _, w := range r.x.Writes(obj) {
		if w.Kind != syntax.AddrOf && w.Kind != syntax.Loop {
			out = append(out, w)
		}
	}
	return out
}

// follow returns the expression a variable was set to (syntax.Follow).
func (r *resolver) follow(e ast.Expr) (ast.Expr, bool) { return r.x.Follow(e) }

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
		obj := r.info.Uses[x]
		if obj == nil {
			obj = r.info.Defs[x]
		}
		w, ok := r.x.Single(obj)
		if !ok {
			if call := r.tupleCall(obj); call != nil {
				return r.embedFSText(call)
			}
			return nil
		}
		switch {
		case w.Value() != nil:
			return r.constDepth(w.Value(), depth+1)
		case w.Kind == syntax.Zero && w.Embed == "":
			return zeroValue(r.info.TypeOf(x))
		case w.Embed != "":
			return r.embedded(w)
		}
	case *ast.SelectorExpr:
		if em := r.importedEmbed(x); em != nil {
			return constant.MakeString(em.Text)
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
func (r *resolver) embedded(w syntax.Write) constant.Value {
	f := r.pass.Fset.File(w.Pos)
	if strings.ContainsAny(w.Embed, "*?[ \"`") || f == nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(f.Name()), filepath.FromSlash(w.Embed)))
	if err != nil {
		return nil
	}
	return constant.MakeString(string(data))
}

// importedEmbed returns the Embedded fact of the variable of another
// package e names (lua.LuaLock), or nil.
func (r *resolver) importedEmbed(e ast.Expr) *Embedded {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || r.pass.ImportObjectFact == nil {
		return nil
	}
	v, ok := r.info.Uses[sel.Sel].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Pkg() == r.pass.Pkg {
		return nil
	}
	em := new(Embedded)
	if !r.pass.ImportObjectFact(v, em) {
		return nil
	}
	return em
}

// tupleCall returns the call of a variable's one write when it is the
// first of a call's results (data, err := f.ReadFile(name)); nil otherwise.
func (r *resolver) tupleCall(obj types.Object) *ast.CallExpr {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Pkg() != r.pass.Pkg || r.x.AddrTaken(v) {
		return nil
	}
	ws := r.x.Writes(v)
	if len(ws) != 1 || ws[0].Idx != 0 || (ws[0].Kind != syntax.Define && ws[0].Kind != syntax.Assign) {
		return nil
	}
	call, _ := ast.Unparen(ws[0].Rhs).(*ast.CallExpr)
	return call
}

// embedFSRead returns the file name a read of an embedded file system
// names — fsys.ReadFile(name) on a //go:embed embed.FS variable, or
// fs.ReadFile(fsys, name) — when name is a constant the variable's
// patterns embed; "" otherwise.
func (r *resolver) embedFSRead(call *ast.CallExpr) string {
	fn := r.calleeFunc(call)
	if fn == nil || fn.Name() != "ReadFile" {
		return ""
	}
	var fsys, name ast.Expr
	switch {
	case fn.Pkg().Path() == "embed" && RecvName(fn) == "FS" && len(call.Args) == 1:
		fsys, name = receiver(call), call.Args[0]
	case fn.Pkg().Path() == "io/fs" && RecvName(fn) == "" && len(call.Args) == 2:
		fsys, name = call.Args[0], call.Args[1]
	default:
		return ""
	}
	id, ok := ast.Unparen(fsys).(*ast.Ident)
	if !ok {
		return ""
	}
	w, ok := r.x.Single(r.info.Uses[id])
	if !ok || w.Embed == "" {
		return ""
	}
	file, ok := r.str(name)
	if !ok {
		return ""
	}
	for _, pat := range strings.Fields(w.Embed) {
		pat = strings.TrimPrefix(pat, "all:")
		if m, _ := path.Match(pat, file); m || strings.HasPrefix(file, strings.TrimSuffix(pat, "/")+"/") {
			return file
		}
	}
	return ""
}

// embedFSText reads the file an embedded file system read names
// (embedFSRead).
func (r *resolver) embedFSText(call *ast.CallExpr) constant.Value {
	name := r.embedFSRead(call)
	f := r.pass.Fset.File(call.Pos())
	if name == "" || f == nil || strings.Contains(name, "..") {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(f.Name()), filepath.FromSlash(name)))
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
