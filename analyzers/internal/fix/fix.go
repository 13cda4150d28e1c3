// Package fix holds what the rules' suggested fixes share: text edits that
// keep whole lines tidy, the statement around a call, the acquire a fix
// takes its token or lease from, how each client spells a lease, the
// strict matcher for a Lua compare-and-delete that DELIFEQ can replace, and
// the native release (DELIFEQ or DELEX, and its builder steps) that
// replaces a compare-and-delete or a plain DEL.
//
// A fix is offered only when the rewrite is certainly correct and the
// result compiles: every inserted expression is one the code already
// contains, is visible at the insertion point with the same meaning
// (Visible), gives the same value when evaluated again (Stable),
// and has a type that fits where it goes (checked with go/types, never
// assumed). When any of this cannot be shown, the finding stands without a
// fix. The rules' package docs state each fix's exact conditions.
package fix

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
)

// Ctx is what a rule's fix needs: the pass (file contents, positions) and
// the package's key facts (with its syntax index).
type Ctx struct {
	Pass *analysis.Pass
	In   *keys.Info
}

// New returns a context for a pass; the rule must require keys.Analyzer.
func New(pass *analysis.Pass) *Ctx { return &Ctx{Pass: pass, In: keys.Of(pass)} }

// One wraps edits as the single suggested fix of a diagnostic; no edits
// means no fix.
func One(message string, edits ...analysis.TextEdit) []analysis.SuggestedFix {
	if len(edits) == 0 {
		return nil
	}
	return []analysis.SuggestedFix{{Message: message, TextEdits: edits}}
}

// Replace replaces the text of [pos, end).
func Replace(pos, end token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text)}
}

// ReplaceNode replaces a node's text.
func ReplaceNode(n ast.Node, text string) analysis.TextEdit { return Replace(n.Pos(), n.End(), text) }

// Insert inserts text at pos.
func Insert(pos token.Pos, text string) analysis.TextEdit { return Replace(pos, pos, text) }

// Text renders an expression the way gofmt would write it. It is used to
// copy an expression the code already contains to another place.
func (c *Ctx) Text(n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, c.Pass.Fset, n); err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	return b.String()
}

// Operand renders e for use as the receiver of a method call: wrapped in
// parentheses unless it is a name, selector, call or other primary
// expression.
func (c *Ctx) Operand(e ast.Expr) string {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr, *ast.BasicLit, *ast.CompositeLit:
		return c.Text(ast.Unparen(e))
	}
	return "(" + c.Text(ast.Unparen(e)) + ")"
}

// Src returns the source of the file holding pos, and its token.File.
func (c *Ctx) Src(pos token.Pos) ([]byte, *token.File) {
	tf := c.Pass.Fset.File(pos)
	if tf == nil {
		return nil, nil
	}
	read := c.Pass.ReadFile
	if read == nil {
		return nil, tf
	}
	src, err := read(tf.Name())
	if err != nil || len(src) != tf.Size() {
		return nil, tf
	}
	return src, tf
}

// DeleteLines deletes [pos, end): when only blanks precede pos on its line
// and only blanks or a line comment follow end on its line, the whole lines
// go (with the comment and the newline), so no empty line or orphaned
// comment is left behind. ok is false when the file cannot be read.
func (c *Ctx) DeleteLines(pos, end token.Pos) (analysis.TextEdit, bool) {
	src, tf := c.Src(pos)
	if src == nil {
		return analysis.TextEdit{}, false
	}
	start, stop := tf.Offset(pos), tf.Offset(end)
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls > 0 && src[ls-1] != '\n' {
		return Replace(pos, end, ""), true // something precedes it on the line
	}
	le := stop
	for le < len(src) && (src[le] == ' ' || src[le] == '\t') {
		le++
	}
	if le+1 < len(src) && src[le] == '/' && src[le+1] == '/' {
		for le < len(src) && src[le] != '\n' {
			le++
		}
	}
	switch {
	case le == len(src):
	case src[le] == '\n':
		le++
	default:
		return Replace(pos, end, ""), true // something follows it on the line
	}
	return Replace(tf.Pos(ls), tf.Pos(le), ""), true
}

// FileOf returns the syntax tree of the file holding pos.
func (c *Ctx) FileOf(pos token.Pos) *ast.File {
	for _, f := range c.Pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// HasMethod returns the method name of type t (through pointers and
// embedding), or nil.
func HasMethod(t types.Type, name string) *types.Func {
	if t == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	fn, _ := obj.(*types.Func)
	return fn
}

// Result1 returns the single result type of fn, or nil.
func Result1(fn *types.Func) types.Type {
	if fn == nil {
		return nil
	}
	res := fn.Signature().Results()
	if res.Len() != 1 {
		return nil
	}
	return res.At(0).Type()
}

// Param returns the type of fn's parameter i (the element type for the
// variadic last one), or nil.
func Param(fn *types.Func, i int) types.Type {
	if fn == nil {
		return nil
	}
	sig := fn.Signature()
	ps := sig.Params()
	switch {
	case sig.Variadic() && i >= ps.Len()-1:
		return ps.At(ps.Len() - 1).Type().(*types.Slice).Elem()
	case i < ps.Len():
		return ps.At(i).Type()
	}
	return nil
}

// Fits reports whether e's type can be passed where a t goes.
func (c *Ctx) Fits(e ast.Expr, t types.Type) bool {
	tv, ok := c.Pass.TypesInfo.Types[e]
	if !ok || tv.Type == nil || t == nil {
		return false
	}
	return types.AssignableTo(tv.Type, t)
}

// ReplaceLastArg replaces the last argument of a method call with a copy
// of e (a go-redis helper's expiration), when the call spreads no slice, e
// fits the method's parameter there and can be written there (Copyable);
// nil otherwise.
func (c *Ctx) ReplaceLastArg(call *ast.CallExpr, e ast.Expr) []analysis.TextEdit {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return nil
	}
	fn, _ := c.Pass.TypesInfo.Uses[sel.Sel].(*types.Func)
	i := len(call.Args) - 1
	if !c.Fits(e, Param(fn, i)) || !c.Copyable(e, call.Args[i].Pos()) {
		return nil
	}
	return []analysis.TextEdit{ReplaceNode(call.Args[i], c.Text(e))}
}

// Copyable reports whether e may be written again at pos: the same
// objects there (Visible) and the same value (Stable).
func (c *Ctx) Copyable(e ast.Expr, pos token.Pos) bool {
	return e != nil && c.Visible(e, pos) && c.Stable(e)
}

// Pure reports whether e has no calls other than type conversions: it can
// be moved or written twice without running anything twice.
func (c *Ctx) Pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, isT := c.Pass.TypesInfo.Types[n.Fun]; !isT || !tv.IsType() {
				ok = false
			}
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = n.Op != token.ARROW // a receive runs something
		}
		return ok
	})
	return ok
}
