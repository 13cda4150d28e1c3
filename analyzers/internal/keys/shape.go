package keys

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// ShapeKind says what a key expression was recognised as.
type ShapeKind int

const (
	Unknown  ShapeKind = iota // nothing to compare: an unknown call, an index expression ...
	Const                     // constant text
	Template                  // constant pieces and holes: "lock:"+id, fmt.Sprintf("lock:%s", id)
	Object                    // a variable or struct field that cannot be followed (a parameter, m.key)
	Call                      // a call to a helper function of the package (lockKey(id)), or of another package with constant arguments (r.keyer.Key(":", "leader"))
)

func (k ShapeKind) String() string {
	return [...]string{"unknown", "const", "template", "object", "call"}[k]
}

// Part is one piece of a Const or Template shape: constant text, or a hole
// filled by an expression.
type Part struct {
	Text string   // constant text ("" for a hole)
	Hole ast.Expr // the expression filling the hole (nil for text)
	Verb string   // a hole from a format verb other than %s/%v/%d: the verb ("x", "08d" ...)
}

// Shape is the canonical form of a key expression, so that rules can decide
// "the same key" without running the code. Locals assigned once are
// replaced by their value, constants by their text, concatenations and
// fmt.Sprintf calls with %s/%v/%d by one template ("lock:"+id and
// fmt.Sprintf("lock:%s", id) are the same template).
type Shape struct {
	Kind  ShapeKind
	Parts []Part       // Const, Template
	Obj   types.Object // Object: the variable or field; Call: the *types.Func
	// Inline is, for a Call, the shape of the helper's returned expression
	// with the call's arguments in place of its parameters (when the helper
	// is a single return statement in this package).
	Inline *Shape
	// Result is, for a Call, the result the key is (a helper returning
	// (key, error)); 0 for the first.
	Result int
	// Args is, for a Call of another package's function or method, what
	// else makes it the same key: the receiver's identity and the
	// constant arguments.
	Args string
	Expr ast.Expr // the expression the shape was built from
}

// Key is the shape's identity: two key expressions are "the same key" when
// their Keys are equal and not empty. Templates compare by text and hole
// positions, not by what fills the holes ("lock:"+a and "lock:"+b are the
// same key family); objects by identity; helper calls by function.
func (s Shape) Key() string {
	switch s.Kind {
	case Const:
		return "c:" + s.Parts[0].Text
	case Template:
		var b strings.Builder
		b.WriteString("t:")
		for _, p := range s.Parts {
			if p.Hole != nil {
				b.WriteString("\x00" + p.Verb + "\x00")
			} else {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	case Object:
		return fmt.Sprintf("o:%p", s.Obj)
	case Call:
		if s.Result > 0 {
			return fmt.Sprintf("f:%s#%d", s.Obj.(*types.Func).FullName(), s.Result)
		}
		return "f:" + s.Obj.(*types.Func).FullName() + s.Args
	}
	return ""
}

// Same reports whether s and t are known to be the same key.
func (s Shape) Same(t Shape) bool {
	k := s.Key()
	return k != "" && k == t.Key()
}

// Texts returns the constant pieces of the key (of the helper's inlined
// shape for a Call), for pattern matching.
func (s Shape) Texts() []string {
	switch s.Kind {
	case Const, Template:
		var out []string
		for _, p := range s.Parts {
			if p.Hole == nil && p.Text != "" {
				out = append(out, p.Text)
			}
		}
		return out
	case Call:
		if s.Inline != nil {
			return s.Inline.Texts()
		}
	}
	return nil
}

// matchShape is a pattern match (settings.LockKey, FenceKey) over a key
// shape's constant pieces (Shape.Texts).
func matchShape(match func(string) (string, bool), s Shape) (string, bool) {
	for _, t := range s.Texts() {
		if pat, ok := match(t); ok {
			return pat, true
		}
	}
	return "", false
}

// ShapeOf returns the shape of a key expression.
func (in *Info) ShapeOf(e ast.Expr) Shape {
	if e == nil {
		return Shape{}
	}
	return in.shape(e, nil, 0)
}

const maxDepth = 8

// shape builds e's shape. env maps a helper's parameters to the caller's
// arguments while a helper body is inlined.
func (in *Info) shape(e ast.Expr, env map[types.Object]ast.Expr, depth int) Shape {
	e = ast.Unparen(e)
	if depth > maxDepth {
		return Shape{Expr: e}
	}
	if tv, ok := in.TypesInfo.Types[e]; ok && tv.Value != nil {
		return Shape{Kind: Const, Parts: []Part{{Text: constText(tv.Value)}}, Expr: e}
	}
	switch x := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		obj := in.ObjOf(x)
		if obj == nil {
			return Shape{Expr: e}
		}
		if arg, ok := env[obj]; ok {
			return in.shape(arg, nil, depth+1)
		}
		v, ok := obj.(*types.Var)
		if !ok {
			return Shape{Expr: e}
		}
		if val := in.SingleValue(v); val != nil {
			s := in.shape(val, nil, depth+1)
			if s.Kind != Unknown {
				return s
			}
		}
		if s, ok := in.resultShape(v, e); ok {
			return s
		}
		return Shape{Kind: Object, Obj: v, Expr: e}
	case *ast.BinaryExpr:
		if x.Op != token.ADD || !syntax.IsString(in.TypesInfo.TypeOf(x)) {
			return Shape{Expr: e}
		}
		l := in.shape(x.X, env, depth+1)
		r := in.shape(x.Y, env, depth+1)
		return template(e, append(in.partsOf(l, x.X), in.partsOf(r, x.Y)...))
	case *ast.CallExpr:
		if tv, ok := in.TypesInfo.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			// string(b), a named string type: the same key.
			s := in.shape(x.Args[0], env, depth+1)
			if s.Kind != Unknown {
				s.Expr = e
			}
			return s
		}
		fn, _ := typeutil.Callee(in.TypesInfo, x).(*types.Func)
		if fn == nil {
			return Shape{Expr: e}
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && !x.Ellipsis.IsValid() && len(x.Args) >= 1 {
			return in.sprintf(x, env, depth)
		}
		if decl := in.Decl(fn); decl != nil && fn.Pkg() == in.Pkg {
			s := Shape{Kind: Call, Obj: fn, Expr: e}
			if ret := singleReturn(decl); ret != nil {
				inner := in.shape(ret, paramEnv(in, decl, x), depth+1)
				if inner.Kind == Const || inner.Kind == Template {
					s.Inline = &inner
				}
			}
			return s
		}
		return in.builderCall(x, fn, env, depth)
	}
	return Shape{Expr: e}
}

// builderCall is the shape of a call of another package's key builder
// whose arguments are all constants (r.keyer.Key(":", "leader"), through
// an interface): the same builder on the same receiver with the same
// arguments builds the same key. A call without arguments, or on a
// receiver that is not a variable or field (time.Now().Format(...)), is
// unknown: it may return something new each time.
func (in *Info) builderCall(x *ast.CallExpr, fn *types.Func, env map[types.Object]ast.Expr, depth int) Shape {
	if len(x.Args) == 0 || x.Ellipsis.IsValid() || !syntax.IsString(in.TypesInfo.TypeOf(x)) {
		return Shape{Expr: x}
	}
	var b strings.Builder
	if fn.Signature().Recv() != nil {
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok {
			return Shape{Expr: x}
		}
		r := in.shape(sel.X, env, depth+1)
		if r.Kind != Object && r.Kind != Const {
			return Shape{Expr: x}
		}
		b.WriteString("@" + r.Key())
	}
	for _, a := range x.Args {
		tv, ok := in.TypesInfo.Types[ast.Unparen(a)]
		if !ok || tv.Value == nil {
			return Shape{Expr: x}
		}
		b.WriteString("\x00" + tv.Value.ExactString())
	}
	return Shape{Kind: Call, Obj: fn, Args: b.String(), Expr: x}
}

// resultShape is the shape of a local set once from one result of a call
// of a helper of the package (key, err := lockKey(id)): the helper's, so
// that two functions building the key with it have the same key. The
// first result keeps the helper's shape; another result is told apart.
func (in *Info) resultShape(v *types.Var, e ast.Expr) (Shape, bool) {
	if v.IsField() || v.Pkg() != in.Pkg || in.AddrTaken(v) {
		return Shape{}, false
	}
	ws := in.Writes(v)
	if len(ws) != 1 || ws[0].Idx < 0 || (ws[0].Kind != syntax.Define && ws[0].Kind != syntax.Assign) {
		return Shape{}, false
	}
	call, ok := ast.Unparen(ws[0].Rhs).(*ast.CallExpr)
	if !ok {
		return Shape{}, false
	}
	fn, _ := typeutil.Callee(in.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() != in.Pkg || in.Decl(fn) == nil {
		return Shape{}, false
	}
	return Shape{Kind: Call, Obj: fn, Result: ws[0].Idx, Expr: call}, true
}

// partsOf turns a sub-shape into template parts: its own parts for
// constants and templates, else one hole.
func (in *Info) partsOf(s Shape, e ast.Expr) []Part {
	switch s.Kind {
	case Const, Template:
		return s.Parts
	}
	if s.Expr != nil {
		// A helper's parameter is filled by the caller's argument.
		return []Part{{Hole: s.Expr}}
	}
	return []Part{{Hole: ast.Unparen(e)}}
}

// template merges adjacent text parts; a template without holes is a Const.
func template(e ast.Expr, parts []Part) Shape {
	var out []Part
	for _, p := range parts {
		if p.Hole == nil && len(out) > 0 && out[len(out)-1].Hole == nil {
			out[len(out)-1].Text += p.Text
			continue
		}
		if p.Hole == nil && p.Text == "" {
			continue
		}
		out = append(out, p)
	}
	holes := false
	for _, p := range out {
		holes = holes || p.Hole != nil
	}
	if !holes {
		text := ""
		if len(out) == 1 {
			text = out[0].Text
		}
		return Shape{Kind: Const, Parts: []Part{{Text: text}}, Expr: e}
	}
	return Shape{Kind: Template, Parts: out, Expr: e}
}

// sprintf parses fmt.Sprintf's constant format into a template. %s, %v and
// %d holes compare like concatenation holes; other verbs keep their text.
// Explicit argument indexes and * widths give Unknown.
func (in *Info) sprintf(call *ast.CallExpr, env map[types.Object]ast.Expr, depth int) Shape {
	tv := in.TypesInfo.Types[call.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return Shape{Expr: call}
	}
	format := constant.StringVal(tv.Value)
	args := call.Args[1:]
	var parts []Part
	var text strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			text.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return Shape{Expr: call}
		}
		if format[i] == '%' {
			text.WriteByte('%')
			continue
		}
		start := i
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i >= len(format) || format[i] == '[' || format[i] == '*' {
			return Shape{Expr: call}
		}
		verb := format[start : i+1]
		if len(args) == 0 {
			return Shape{Expr: call}
		}
		arg := args[0]
		args = args[1:]
		parts = append(parts, Part{Text: text.String()})
		text.Reset()
		if verb == "s" || verb == "v" || verb == "d" {
			sub := in.shape(arg, env, depth+1)
			if sub.Kind == Const || sub.Kind == Template {
				parts = append(parts, sub.Parts...)
				continue
			}
			parts = append(parts, in.partsOf(sub, arg)...)
			continue
		}
		hole := in.partsOf(in.shape(arg, env, depth+1), arg)
		if len(hole) == 1 && hole[0].Hole != nil {
			parts = append(parts, Part{Hole: hole[0].Hole, Verb: verb})
			continue
		}
		parts = append(parts, Part{Hole: ast.Unparen(arg), Verb: verb})
	}
	if len(args) != 0 {
		return Shape{Expr: call}
	}
	parts = append(parts, Part{Text: text.String()})
	return template(call, parts)
}

// singleReturn returns the expression of a function whose body is exactly
// `return expr`.
func singleReturn(decl *ast.FuncDecl) ast.Expr {
	if decl.Body == nil || len(decl.Body.List) != 1 {
		return nil
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	return ret.Results[0]
}

// paramEnv maps a helper's parameters to the call's arguments.
func paramEnv(in *Info, decl *ast.FuncDecl, call *ast.CallExpr) map[types.Object]ast.Expr {
	env := map[types.Object]ast.Expr{}
	if call.Ellipsis.IsValid() {
		return env
	}
	i := 0
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if i < len(call.Args) {
				if obj := in.TypesInfo.Defs[name]; obj != nil {
					env[obj] = call.Args[i]
				}
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return env
}

func constText(v constant.Value) string {
	if v.Kind() == constant.String {
		return constant.StringVal(v)
	}
	return v.ExactString()
}

// HoleKey identifies the expression filling a hole: the variable it names
// (following locals assigned once), else its source text.
func (in *Info) HoleKey(e ast.Expr) string {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if obj := in.ObjOf(id); obj != nil {
			if val := in.SingleValue(obj); val != nil {
				return in.HoleKey(val)
			}
			return fmt.Sprintf("o:%p", obj)
		}
	}
	return "x:" + types.ExprString(e)
}

// SameKey reports whether two key expressions are certainly the same key
// at run time: the same shape (Same) with every hole filled by the same
// expression (HoleKey), and for helper calls the same arguments. Use it
// where "the same key family" is not enough (an EXPIRE of the key just
// acquired).
func (in *Info) SameKey(a, b ast.Expr) bool {
	sa, sb := in.ShapeOf(a), in.ShapeOf(b)
	if !sa.Same(sb) {
		return false
	}
	ha, hb := holes(sa), holes(sb)
	if len(ha) != len(hb) {
		return false
	}
	for i := range ha {
		if in.HoleKey(ha[i]) != in.HoleKey(hb[i]) {
			return false
		}
	}
	return true
}

// holes lists the expressions filling a shape's holes; for a helper call,
// its arguments.
func holes(s Shape) []ast.Expr {
	var out []ast.Expr
	switch s.Kind {
	case Template:
		for _, p := range s.Parts {
			if p.Hole != nil {
				out = append(out, p.Hole)
			}
		}
	case Call:
		if c, ok := ast.Unparen(s.Expr).(*ast.CallExpr); ok {
			out = append(out, c.Args...)
		}
	}
	return out
}
