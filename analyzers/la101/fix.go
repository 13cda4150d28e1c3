package la101

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// releaseFix replaces a Lua compare-and-delete by DELIFEQ key token (DELEX
// key IFEQ token when the -target has DELEX but not DELIFEQ): an inline
// EVAL is rewritten where it is; a script object's runs are all
// rewritten and its definition removed, or nothing is. See the package doc
// for the conditions.
func releaseFix(c *fix.Ctx, def *resolve.Op, sc *resolve.Script) []analysis.SuggestedFix {
	cmd := fix.ReleaseCmd(settings.Of(c.Pass))
	if cmd == "" || !fix.CompareAndDelete(sc.Text) {
		return nil
	}
	msg := "release with " + cmd + " key token instead of the Lua script"
	if sc.Inline {
		return fix.One(msg, inlineRun(c, def, cmd)...)
	}
	edits := scriptRuns(c, sc, cmd)
	if len(edits) == 0 {
		return nil
	}
	return fix.One(msg+" (every run rewritten, the script removed)", edits...)
}

// rewrite is what a run becomes.
type rewrite struct {
	cmd       string
	key, tok  ast.Expr
	ctx, conn ast.Expr
}

// raw renders the command's arguments after its name for raw forms:
// "DELIFEQ", k, tok or "DELEX", k, "IFEQ", tok.
func (r rewrite) raw(c *fix.Ctx) string {
	if r.cmd == "DELEX" {
		return `"DELEX", ` + c.Text(r.key) + `, "IFEQ", ` + c.Text(r.tok)
	}
	return `"DELIFEQ", ` + c.Text(r.key) + ", " + c.Text(r.tok)
}

// inlineRun rewrites an EVAL that sends the script text itself.
func inlineRun(c *fix.Ctx, op *resolve.Op, cmd string) []analysis.TextEdit {
	if op.Call == nil || !op.Complete || op.Tx != nil {
		return nil
	}
	switch {
	case op.Client.API == resolve.APIGoRedis && fix.MethodName(op.Call) == "Eval":
		// rdb.Eval(ctx, src, []string{k}, tok) -> rdb.Do(ctx, "DELIFEQ", k, tok)
		a := op.Call.Args
		if op.Call.Ellipsis.IsValid() || len(a) != 4 {
			return nil
		}
		k, ok := oneElem(a[2])
		if !ok || !c.Pure(a[1]) {
			return nil
		}
		r := rewrite{cmd: cmd, key: k, tok: a[3], ctx: a[0], conn: fix.Receiver(op.Call)}
		return goRedisDo(c, op.Call, r, false)
	case op.Client.API == resolve.APIRaw || op.Client.API == resolve.APIGoRedis:
		// Do("EVAL", src, 1, k, tok) -> Do("DELIFEQ", k, tok)
		a := op.Call.Args
		for i := range a {
			if c.Word(a[i]) != "EVAL" {
				continue
			}
			if op.Call.Ellipsis.IsValid() || len(a) != i+5 || intConst(c, a[i+2]) != 1 || !c.Pure(a[i+1]) {
				return nil
			}
			r := rewrite{cmd: cmd, key: a[i+3], tok: a[i+4]}
			return []analysis.TextEdit{fix.Replace(a[i].Pos(), a[i+4].End(), r.raw(c))}
		}
	case op.Client.API == resolve.APIBuilder:
		// B().Eval().Script(src).Numkeys(1).Key(k).Arg(tok).Build() ->
		// B().Delifeq().Key(k).Value(tok).Build()
		chain := fix.Chain(op.Expr)
		names := []string{"B", "Eval", "Script", "Numkeys", "Key", "Arg", "Build"}
		if op.Expr == nil || len(chain) != len(names) {
			return nil
		}
		for i, call := range chain {
			if fix.MethodName(call) != names[i] {
				return nil
			}
		}
		if intConst(c, oneArg(chain[3])) != 1 || oneArg(chain[4]) == nil || oneArg(chain[5]) == nil || !c.Pure(oneArg(chain[2])) {
			return nil
		}
		r := rewrite{cmd: cmd, key: oneArg(chain[4]), tok: oneArg(chain[5])}
		steps, ok := builderSteps(c, c.Pass.TypesInfo.TypeOf(chain[0]), r)
		if !ok {
			return nil
		}
		eval := ast.Unparen(chain[1].Fun).(*ast.SelectorExpr) // Chain: a selector
		return []analysis.TextEdit{fix.Replace(eval.Sel.Pos(), chain[5].End(), steps)}
	}
	return nil
}

// goRedisDo replaces call by conn.Do(ctx, "DELIFEQ", k, tok) when conn has
// a Do whose reply type is call's (so every use of the reply still
// compiles). moved says the arguments change places (the conn was an
// argument): then they must all be pure.
func goRedisDo(c *fix.Ctx, call *ast.CallExpr, r rewrite, moved bool) []analysis.TextEdit {
	if r.conn == nil {
		return nil
	}
	if moved && !(c.Pure(r.conn) && c.Pure(r.ctx) && c.Pure(r.key) && c.Pure(r.tok)) {
		return nil
	}
	do := fix.HasMethod(c.Pass.TypesInfo.TypeOf(r.conn), "Do")
	if do == nil || !types.Identical(fix.Result1(do), c.Pass.TypesInfo.TypeOf(call)) {
		return nil
	}
	text := c.Operand(r.conn) + ".Do(" + c.Text(r.ctx) + ", " + r.raw(c) + ")"
	return []analysis.TextEdit{fix.ReplaceNode(call, text)}
}

// builderSteps renders Delifeq().Key(k).Value(tok) (or
// Delex().Key(k).Ifeq(tok)) after a builder of type bt, when it has these
// steps (fix.ReleaseSteps).
func builderSteps(c *fix.Ctx, bt types.Type, r rewrite) (string, bool) {
	step, cond, ok := c.ReleaseSteps(bt, r.cmd, r.key, r.tok)
	if !ok {
		return "", false
	}
	return step + "().Key(" + c.Text(r.key) + ")." + cond + "(" + c.Text(r.tok) + ")", true
}

// scriptRuns rewrites every run of a script object and removes its
// definition; nil when any of it cannot be done. The object must be held
// by one unexported variable (or a local) given only the constructor, and
// every use of that variable must be the receiver of a run the layer
// resolved to this script.
func scriptRuns(c *fix.Ctx, sc *resolve.Script, cmd string) []analysis.TextEdit {
	info := c.Pass.TypesInfo
	name, del, ok := definition(c, sc.Def)
	if !ok {
		return nil
	}
	obj, _ := info.Defs[name].(*types.Var)
	if obj == nil || (obj.Parent() == c.Pass.Pkg.Scope() && obj.Exported()) {
		return nil
	}
	runs := map[*ast.Ident]*resolve.Op{}
	for _, op := range c.In.Ops {
		if op.Kind != resolve.Command || op.Script != sc || op.Call == nil {
			continue
		}
		id, ok := ast.Unparen(fix.Receiver(op.Call)).(*ast.Ident)
		if !ok || info.Uses[id] != obj {
			return nil // a run through another expression
		}
		runs[id] = op
	}
	var edits []analysis.TextEdit
	for id, o := range info.Uses {
		if o != obj {
			continue
		}
		op := runs[id]
		if op == nil {
			return nil // a use that is not a run: the script is needed
		}
		e := run(c, op, cmd)
		if e == nil {
			return nil
		}
		edits = append(edits, e...)
	}
	if len(edits) == 0 {
		return nil
	}
	edits = append(edits, del...)
	return append(edits, dropImport(c, sc.Def, del)...)
}

// definition finds the declaration of the variable a script constructor is
// assigned to, and the edits that delete it (with its doc comment).
func definition(c *fix.Ctx, call *ast.CallExpr) (*ast.Ident, []analysis.TextEdit, bool) {
	p, _ := c.Up(call)
	switch p := p.(type) {
	case *ast.ValueSpec:
		if len(p.Names) != 1 || len(p.Values) != 1 {
			return nil, nil, false
		}
		gd, ok := c.In.Parent(p).(*ast.GenDecl)
		if !ok {
			return nil, nil, false
		}
		from, to := p.Pos(), p.End()
		if p.Doc != nil {
			from = p.Doc.Pos()
		}
		if len(gd.Specs) == 1 {
			from, to = gd.Pos(), gd.End()
			if gd.Doc != nil {
				from = gd.Doc.Pos()
			}
		}
		e, ok := c.DeleteLines(from, to)
		return p.Names[0], []analysis.TextEdit{e}, ok
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != 1 || len(p.Rhs) != 1 {
			return nil, nil, false
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		if !ok {
			return nil, nil, false
		}
		e, ok := c.DeleteLines(p.Pos(), p.End())
		return id, []analysis.TextEdit{e}, ok
	}
	return nil, nil, false
}

// dropImport deletes the import of the constructor's package when the
// deleted definition was the file's last use of it (an unused import does
// not compile).
func dropImport(c *fix.Ctx, call *ast.CallExpr, del []analysis.TextEdit) []analysis.TextEdit {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	pn, ok := c.Pass.TypesInfo.Uses[id].(*types.PkgName)
	if !ok {
		return nil
	}
	f := c.FileOf(call.Pos())
	if f == nil {
		return nil
	}
	for use, o := range c.Pass.TypesInfo.Uses {
		if o != pn || use.Pos() < f.FileStart || use.Pos() > f.FileEnd {
			continue
		}
		deleted := false
		for _, d := range del {
			if d.Pos <= use.Pos() && use.End() <= d.End {
				deleted = true
			}
		}
		if !deleted {
			return nil // still used
		}
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			is := spec.(*ast.ImportSpec)
			if c.Pass.TypesInfo.PkgNameOf(is) != pn {
				continue
			}
			from, to := is.Pos(), is.End()
			if len(gd.Specs) == 1 {
				from, to = gd.Pos(), gd.End()
			}
			if e, ok := c.DeleteLines(from, to); ok {
				return []analysis.TextEdit{e}
			}
		}
	}
	return nil
}

// run rewrites one run of a script object.
func run(c *fix.Ctx, op *resolve.Op, cmd string) []analysis.TextEdit {
	if !op.Complete || op.Tx != nil || op.Call.Ellipsis.IsValid() {
		return nil
	}
	a := op.Call.Args
	switch {
	case op.Client.API == resolve.APIGoRedis:
		// script.Run(ctx, c, []string{k}, tok) -> c.Do(ctx, "DELIFEQ", k, tok)
		switch fix.MethodName(op.Call) {
		case "Run", "Eval", "EvalSha":
		default:
			return nil
		}
		if len(a) != 4 {
			return nil
		}
		k, ok := oneElem(a[2])
		if !ok {
			return nil
		}
		return goRedisDo(c, op.Call, rewrite{cmd: cmd, key: k, tok: a[3], ctx: a[0], conn: a[1]}, true)
	case op.Client.API == resolve.APIBuilder:
		// script.Exec(ctx, c, []string{k}, []string{tok}) ->
		// c.Do(ctx, c.B().Delifeq().Key(k).Value(tok).Build())
		if fix.MethodName(op.Call) != "Exec" || len(a) != 4 {
			return nil
		}
		k, ok1 := oneElem(a[2])
		tok, ok2 := oneElem(a[3])
		conn := a[1]
		if !ok1 || !ok2 || !c.Pure(conn) || !c.Pure(a[0]) || !c.Pure(k) || !c.Pure(tok) {
			return nil
		}
		ct := c.Pass.TypesInfo.TypeOf(conn)
		do, b := fix.HasMethod(ct, "Do"), fix.HasMethod(ct, "B")
		if do == nil || b == nil || !types.Identical(fix.Result1(do), c.Pass.TypesInfo.TypeOf(op.Call)) {
			return nil
		}
		r := rewrite{cmd: cmd, key: k, tok: tok}
		steps, ok := builderSteps(c, fix.Result1(b), r)
		if !ok {
			return nil
		}
		cs := c.Operand(conn)
		return []analysis.TextEdit{fix.ReplaceNode(op.Call, cs+".Do("+c.Text(a[0])+", "+cs+".B()."+steps+".Build())")}
	case op.Client.API == resolve.APIRaw:
		// script.Do(conn, k, tok) -> conn.Do("DELIFEQ", k, tok), for a
		// script built with one key
		if fix.MethodName(op.Call) != "Do" || len(a) != 3 || len(op.Keys) != 1 || op.Keys[0] != a[1] {
			return nil
		}
		conn := a[0]
		if !c.Pure(conn) || !c.Pure(a[1]) || !c.Pure(a[2]) {
			return nil
		}
		do := fix.HasMethod(c.Pass.TypesInfo.TypeOf(conn), "Do")
		if do == nil || !types.Identical(do.Signature().Results(), c.Pass.TypesInfo.TypeOf(op.Call)) {
			return nil
		}
		r := rewrite{cmd: cmd, key: a[1], tok: a[2]}
		return []analysis.TextEdit{fix.ReplaceNode(op.Call, c.Operand(conn)+".Do("+r.raw(c)+")")}
	}
	return nil
}

func oneElem(e ast.Expr) (ast.Expr, bool) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || len(lit.Elts) != 1 {
		return nil, false
	}
	if _, kv := lit.Elts[0].(*ast.KeyValueExpr); kv {
		return nil, false
	}
	return lit.Elts[0], true
}

func oneArg(call *ast.CallExpr) ast.Expr {
	if len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	return call.Args[0]
}

func intConst(c *fix.Ctx, e ast.Expr) int64 {
	if e == nil {
		return -1
	}
	tv := c.Pass.TypesInfo.Types[e]
	if tv.Value == nil {
		return -1
	}
	if tv.Value.Kind() == constant.String {
		return -1
	}
	n, ok := constant.Int64Val(constant.ToInt(tv.Value))
	if !ok {
		return -1
	}
	return n
}
