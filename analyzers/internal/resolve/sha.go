package resolve

import "go/ast"

// hashedScript is the script an EVALSHA run sends when its SHA is the
// SHA1 of a visible text computed in Go: hex.EncodeToString(sha1.Sum(
// []byte(text))[:]) (or any expression around crypto/sha1's Sum of the
// text), or a call of one of this package's one-parameter functions that
// hash with crypto/sha1, given the text (hashScript(atomicSetScript) of a
// //go:embed file). The run is that text's EVAL, reported where it runs
// (Inline: no definition Op); nil otherwise.
func (r *resolver) hashedScript(v ast.Expr, run *Op) *Script {
	if sc, ok := r.hashed[hashedRun{run, v}]; ok {
		return sc
	}
	var text ast.Expr
	if c, ok := ast.Unparen(v).(*ast.CallExpr); ok && len(c.Args) == 1 {
		if fn := r.calleeFunc(c); fn != nil && fn.Pkg() == r.pass.Pkg && fn.Signature().Params().Len() == 1 {
			if fd := r.x.Decl(fn); fd != nil && fd.Body != nil && r.sha1Sum(fd.Body) != nil {
				text = c.Args[0]
			}
		}
	}
	if text == nil {
		sum := r.sha1Sum(v)
		if sum == nil || len(sum.Args) != 1 {
			return nil
		}
		text = sum.Args[0]
		if conv, ok := ast.Unparen(text).(*ast.CallExpr); ok && len(conv.Args) == 1 {
			if tv, ok := r.info.Types[conv.Fun]; ok && tv.IsType() {
				text = conv.Args[0] // []byte(text)
			}
		}
	}
	src, ok := r.str(text)
	if !ok || src == "" {
		return nil
	}
	sc := &Script{Text: src, Source: r.embedSource(text), Def: run.Call, Pos: run.Pos, Inline: true, numKeys: -1}
	if r.hashed == nil {
		r.hashed = map[hashedRun]*Script{}
	}
	r.hashed[hashedRun{run, v}] = sc
	return sc
}

// sha1Sum finds a call of crypto/sha1 (Sum, New) in n: the Sum call, or
// any such call when n is a function body.
func (r *resolver) sha1Sum(n ast.Node) *ast.CallExpr {
	var out *ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || out != nil {
			return out == nil
		}
		if fn := r.calleeFunc(c); fn != nil && fn.Pkg().Path() == "crypto/sha1" {
			out = c
		}
		return out == nil
	})
	return out
}

// hashedRun keys hashedScript's cache: a run, and one value its SHA holds.
type hashedRun struct {
	run *Op
	v   ast.Expr
}
