package fix

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SetArgsTTL sets the TTL field of a go-redis SetArgs composite literal to
// d: it replaces KeepTTL: true when keep is set (KEEPTTL and a TTL
// together are a syntax error), else a TTL field that is there (a zero),
// else it adds the field. d must fit the field's type and be copyable
// there.
func (c *Ctx) SetArgsTTL(e ast.Expr, d ast.Expr, keep bool) []analysis.TextEdit {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	field, _, _ := types.LookupFieldOrMethod(c.Pass.TypesInfo.TypeOf(lit), true, nil, "TTL")
	if v, ok := field.(*types.Var); !ok || !v.IsField() || !c.Fits(d, v.Type()) || !c.Copyable(d, lit.Pos()) {
		return nil
	}
	text := c.Text(d)
	var ttl, keepKV *ast.KeyValueExpr
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		switch id, _ := kv.Key.(*ast.Ident); {
		case id == nil:
			return nil
		case id.Name == "TTL":
			ttl = kv
		case id.Name == "KeepTTL":
			keepKV = kv
		}
	}
	if keep {
		if ttl != nil || keepKV == nil || !c.isTrue(keepKV.Value) {
			return nil
		}
		return []analysis.TextEdit{ReplaceNode(keepKV, "TTL: "+text)}
	}
	if keepKV != nil {
		return nil
	}
	if ttl != nil {
		return []analysis.TextEdit{ReplaceNode(ttl.Value, text)}
	}
	if len(lit.Elts) == 0 {
		return []analysis.TextEdit{Insert(lit.Lbrace+1, "TTL: "+text)}
	}
	last := lit.Elts[len(lit.Elts)-1]
	fset := c.Pass.Fset
	if fset.Position(lit.Rbrace).Line > fset.Position(last.End()).Line {
		// One field a line: a line of its own, with the others' indent.
		src, tf := c.Src(last.Pos())
		if src == nil {
			return nil
		}
		off := tf.Offset(last.Pos())
		ls := off
		for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
			ls--
		}
		return []analysis.TextEdit{Insert(last.End(), ",\n"+string(src[ls:off])+"TTL: "+text)}
	}
	return []analysis.TextEdit{Insert(last.End(), ", TTL: "+text)}
}

func (c *Ctx) isTrue(e ast.Expr) bool {
	tv, ok := c.Pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "true"
}
