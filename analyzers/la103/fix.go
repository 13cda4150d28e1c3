package la103

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// releaseFix turns a plain DEL/UNLINK of a lock key into DELIFEQ key token
// (DELEX key IFEQ token when the -target has DELEX but not DELIFEQ). See
// the package doc for the conditions.
func releaseFix(c *fix.Ctx, op *resolve.Op) []analysis.SuggestedFix {
	if op.Call == nil || op.Tx != nil || !op.Complete || len(op.Keys) != 1 || (op.Name != "DEL" && op.Name != "UNLINK") {
		return nil
	}
	cmd := fix.ReleaseCmd(settings.Of(c.Pass))
	if cmd == "" {
		return nil
	}
	tok, ok := c.Token(op, op.Call.Pos())
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	switch op.Client.API {
	case resolve.APIRaw:
		edits = rawRelease(c, op, tok, cmd)
	case resolve.APIGoRedis:
		switch fix.MethodName(op.Call) {
		case "Del", "Unlink":
			edits = goRedisRelease(c, op, tok, cmd)
		case "Do":
			edits = rawRelease(c, op, tok, cmd)
		}
	case resolve.APIBuilder:
		edits = builderRelease(c, op, tok, cmd)
	}
	what := cmd + " key " + c.Text(tok)
	if cmd == "DELEX" {
		what = "DELEX key IFEQ " + c.Text(tok)
	}
	return fix.One("release with "+what+" (the token of the acquire)", edits...)
}

// rawRelease: Do("DEL", key) -> Do("DELIFEQ", key, token) on redigo and
// go-redis. Both commands reply with an integer (1 when the key was
// deleted), so the reply check stays as it is.
func rawRelease(c *fix.Ctx, op *resolve.Op, tok ast.Expr, cmd string) []analysis.TextEdit {
	i, ok := c.RawName(op)
	if !ok || len(op.Call.Args) != i+2 {
		return nil
	}
	name, key := op.Call.Args[i], op.Call.Args[i+1]
	upper := c.IsUpper(name)
	rest := ", " + c.Text(tok)
	if cmd == "DELEX" {
		rest = ", " + fix.Keyword("IFEQ", upper) + rest
	}
	return []analysis.TextEdit{fix.ReplaceNode(name, fix.Keyword(cmd, upper)), fix.Insert(key.End(), rest)}
}

// goRedisRelease: rdb.Del(ctx, key) -> rdb.Do(ctx, "DELIFEQ", key, token)
// when the *IntCmd reply is discarded, only its error is read, or it is
// read with Result() (which becomes Int64(), the same (int64, error));
// with DELEX: rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ",
// MatchValue: token}), which returns the same *IntCmd.
func goRedisRelease(c *fix.Ctx, op *resolve.Op, tok ast.Expr, cmd string) []analysis.TextEdit {
	sel, ok := ast.Unparen(op.Call.Fun).(*ast.SelectorExpr)
	if !ok || op.Call.Ellipsis.IsValid() || len(op.Call.Args) != 2 {
		return nil
	}
	key := op.Call.Args[1]
	recv := c.Pass.TypesInfo.TypeOf(sel.X)
	delType := c.Pass.TypesInfo.TypeOf(op.Call)
	if cmd == "DELEX" {
		m := fix.HasMethod(recv, "DelExArgs")
		if m == nil || !types.Identical(fix.Result1(m), delType) {
			return nil
		}
		pkg := importName(c, m.Pkg().Path(), op.Call.Pos())
		if pkg == "" || m.Pkg().Scope().Lookup("DelExArgs") == nil {
			return nil
		}
		return []analysis.TextEdit{
			fix.ReplaceNode(sel.Sel, "DelExArgs"),
			fix.Insert(key.End(), ", "+pkg+`.DelExArgs{Mode: "IFEQ", MatchValue: `+c.Text(tok)+"}"),
		}
	}
	do := fix.HasMethod(recv, "Do")
	if do == nil || fix.Result1(do) == nil {
		return nil
	}
	edits := []analysis.TextEdit{
		fix.ReplaceNode(sel.Sel, "Do"),
		fix.Insert(key.Pos(), `"DELIFEQ", `),
		fix.Insert(key.End(), ", "+c.Text(tok)),
	}
	p, _ := c.Up(op.Call)
	switch p.(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return edits
	}
	m, name := c.MethodOn(op.Call)
	if m == nil {
		return nil
	}
	switch name {
	case "Err":
		return edits
	case "Result":
		// (*IntCmd).Result() (int64, error) == (*Cmd).Int64()
		res, i64 := fix.HasMethod(delType, "Result"), fix.HasMethod(fix.Result1(do), "Int64")
		if res == nil || i64 == nil || !types.Identical(res.Signature().Results(), i64.Signature().Results()) {
			return nil
		}
		return append(edits, fix.ReplaceNode(m.Fun.(*ast.SelectorExpr).Sel, "Int64"))
	}
	return nil // Val() and the rest: the *Cmd spelling would not compile
}

// importName returns the name under which the file holding pos imports
// path, when it means that package at pos (not shadowed); "" otherwise.
func importName(c *fix.Ctx, path string, pos token.Pos) string {
	f := c.FileOf(pos)
	if f == nil {
		return ""
	}
	for _, spec := range f.Imports {
		pn := c.Pass.TypesInfo.PkgNameOf(spec)
		if pn == nil || pn.Imported().Path() != path || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if _, obj := c.Pass.Pkg.Scope().Innermost(pos).LookupParent(pn.Name(), pos); obj == pn {
			return pn.Name()
		}
	}
	return ""
}

// builderRelease: c.B().Del().Key(k).Build() ->
// c.B().Delifeq().Key(k).Value(token).Build() (or Delex().Key(k).Ifeq(token))
// when the whole chain is written inside the Do call. The reply is the
// same ValkeyResult, an integer either way.
func builderRelease(c *fix.Ctx, op *resolve.Op, tok ast.Expr, cmd string) []analysis.TextEdit {
	if op.Expr == nil || op.Expr.Pos() < op.Call.Pos() || op.Expr.End() > op.Call.End() {
		return nil
	}
	chain := fix.Chain(op.Expr)
	// B(), Del()/Unlink(), Key(k), Build()
	j := -1
	for i, call := range chain {
		if n := fix.MethodName(call); n == "Del" || n == "Unlink" {
			j = i
		}
	}
	if j < 0 || len(chain) != j+3 || fix.MethodName(chain[j+1]) != "Key" || fix.MethodName(chain[j+2]) != "Build" {
		return nil
	}
	keyCall := chain[j+1]
	if len(keyCall.Args) != 1 || keyCall.Ellipsis.IsValid() {
		return nil
	}
	sel := ast.Unparen(chain[j].Fun).(*ast.SelectorExpr) // Chain: a selector
	step, cond, ok := c.ReleaseSteps(c.Pass.TypesInfo.TypeOf(sel.X), cmd, keyCall.Args[0], tok)
	if !ok {
		return nil
	}
	return []analysis.TextEdit{
		fix.ReplaceNode(sel.Sel, step),
		fix.Insert(keyCall.End(), "."+cond+"("+c.Text(tok)+")"),
	}
}
