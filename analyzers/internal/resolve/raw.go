package resolve

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// tok is one argument of a raw command (after the command name): an
// expression as written, or a keyword a builder step implies.
type tok struct {
	expr   ast.Expr // nil for a keyword implied by a builder step
	word   string   // the upper-cased constant text, when constant
	known  bool     // word is the argument's value
	key    bool     // a builder Key()/Keys() argument
	spread bool     // an unknown number of arguments (args..., AddFlat(x))
}

func wordTok(w string) tok { return tok{word: w, known: true} }

// exprTok makes a token from an argument expression.
func (r *resolver) exprTok(e ast.Expr) tok {
	t := tok{expr: e}
	if s, ok := r.str(e); ok {
		t.word, t.known = strings.ToUpper(s), true
	}
	return t
}

// tokens makes tokens from call arguments; a spread last argument is
// expanded when it is a visible slice literal (or redis.Args{}.Add(...)
// chain), otherwise it is an unknown run of arguments.
func (r *resolver) tokens(args []ast.Expr, spread bool) []tok {
	var out []tok
	for i, a := range args {
		if spread && i == len(args)-1 {
			out = append(out, r.spreadTokens(a)...)
			break
		}
		out = append(out, r.exprTok(a))
	}
	return out
}

func (r *resolver) spreadTokens(e ast.Expr) []tok {
	if elems, ok := r.sliceElems(e); ok {
		var out []tok
		for _, el := range elems {
			out = append(out, r.exprTok(el))
		}
		return out
	}
	// append([]interface{}{"SET", k, v}, more...): the literal is visible
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && isBuiltin(r.info, c, "append") && len(c.Args) > 0 {
		head := r.spreadTokens(c.Args[0])
		return append(head, r.tokens(c.Args[1:], c.Ellipsis.IsValid())...)
	}
	// redigo: redis.Args{}.Add(k).Add(v).AddFlat(m)
	if toks, ok := r.redigoArgs(e); ok {
		return toks
	}
	if toks, ok := r.filledSlice(e); ok {
		return toks
	}
	return []tok{{expr: e, spread: true}}
}

// filledSlice reads a local slice filled by index before it is spread:
// args := make([]interface{}, 2+len(rest)); args[0] = src; args[1] = n;
// copy(args[2:], rest). Its elements are the ones set by constant index,
// then rest (whose length is unknown). Any other use of the variable
// before the spread makes it unknown.
func (r *resolver) filledSlice(e ast.Expr) ([]tok, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() != r.pass.Pkg || syntax.IsPkgLevel(v) || r.x.AddrTaken(v) {
		return nil, false
	}
	ws := r.x.Writes(v)
	if len(ws) != 1 || ws[0].Value() == nil {
		return nil, false
	}
	mk, ok := ast.Unparen(ws[0].Value()).(*ast.CallExpr)
	if !ok || !isBuiltin(r.info, mk, "make") || len(mk.Args) < 2 {
		return nil, false
	}
	set := map[int64]ast.Expr{}
	var rest ast.Expr
	from := int64(-1)
	for _, u := range r.x.Uses(v) {
		if u == id || u.Pos() > id.Pos() {
			continue
		}
		switch p := r.x.Parent(u).(type) {
		case *ast.IndexExpr:
			i, ok := r.intVal(p.Index)
			as, isAssign := r.x.Parent(p).(*ast.AssignStmt)
			if !ok || !isAssign || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Lhs[0] != p || as.Tok.String() != "=" || set[i] != nil {
				return nil, false
			}
			set[i] = as.Rhs[0]
		case *ast.SliceExpr:
			call, isCall := r.x.Parent(p).(*ast.CallExpr)
			if !isCall || !isBuiltin(r.info, call, "copy") || len(call.Args) != 2 || call.Args[0] != p || p.High != nil || p.Low == nil || rest != nil {
				return nil, false
			}
			if from, ok = r.intVal(p.Low); !ok {
				return nil, false
			}
			rest = call.Args[1]
		default:
			return nil, false
		}
	}
	n := int64(len(set))
	if rest != nil && from != n {
		return nil, false
	}
	var out []tok
	for i := range n {
		if set[i] == nil {
			return nil, false
		}
		out = append(out, r.exprTok(set[i]))
	}
	if rest != nil {
		out = append(out, tok{expr: rest, spread: true})
	}
	return out, len(out) > 0
}

// redigoArgs reads a redis.Args{...}.Add(...).AddFlat(...) chain: the
// arguments before the first AddFlat (whose length is unknown) are visible.
func (r *resolver) redigoArgs(e ast.Expr) ([]tok, bool) {
	var chain []*ast.CallExpr
	for {
		e = ast.Unparen(e)
		c, ok := e.(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		chain = append(chain, c)
		e = sel.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || len(chain) == 0 {
		return nil, false
	}
	if n, ok := types.Unalias(r.info.TypeOf(lit)).(*types.Named); !ok || n.Obj().Name() != "Args" || r.pkgInfoOf(n.Obj().Pkg()) == nil || r.pkgInfoOf(n.Obj().Pkg()).client.API != APIRaw {
		return nil, false
	}
	var out []tok
	for _, el := range lit.Elts {
		out = append(out, r.exprTok(el))
	}
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		switch c.Fun.(*ast.SelectorExpr).Sel.Name {
		case "Add":
			out = append(out, r.tokens(c.Args, c.Ellipsis.IsValid())...)
		default: // AddFlat and anything else: unknown length
			return append(out, tok{expr: c, spread: true}), true
		}
	}
	return out, true
}

// fillRaw sets the Op's fields from a command name and its argument tokens,
// as the server would read them. Args are the tokens' expressions, whatever
// the caller set before (a sender's own arguments start with the name).
func (r *resolver) fillRaw(op *Op, name string, toks []tok) {
	op.Name = strings.ToUpper(name)
	op.Args = nil
	for _, t := range toks {
		if t.expr != nil {
			op.Args = append(op.Args, t.expr)
		}
	}
	// Arguments up to the first spread are positional facts; after it
	// positions are unknown.
	vis := toks
	for i, t := range toks {
		if t.spread {
			vis = toks[:i]
			op.Complete = false
			break
		}
	}
	arg := func(i int) ast.Expr {
		if i < len(vis) {
			return vis[i].expr
		}
		return nil
	}

	// Builders mark their keys.
	var marked []ast.Expr
	for _, t := range vis {
		if t.key && t.expr != nil {
			marked = append(marked, t.expr)
		}
	}

	switch op.Name {
	case "EVAL", "EVAL_RO", "EVALSHA", "EVALSHA_RO", "FCALL", "FCALL_RO":
		op.text = arg(0)
		r.inlineScript(op, op.text)
		if marked != nil {
			op.Keys = marked
		} else if len(vis) > 1 {
			if n, ok := r.numkeys(vis[1].expr); ok && n >= 0 {
				for i := 2; i < 2+int(n); i++ {
					if e := arg(i); e != nil {
						op.Keys = append(op.Keys, e)
					} else {
						op.Complete = false
					}
				}
				if op.Complete && len(vis) == len(toks) {
					for _, t := range vis[min(2+int(n), len(vis)):] {
						op.argv = append(op.argv, t.expr)
					}
				}
			} else {
				op.Complete = false
				if len(toks) == 3 && len(vis) == 2 {
					// EVAL src n keysAndArgs...: a wrapper's callers
					// pass the count and the list (keysArgv).
					op.numKeys, op.keysArgv = vis[1].expr, toks[2].expr
				}
			}
		}
		return
	}

	if marked != nil {
		op.Keys = marked
	} else if ks, ok := rawKeys[op.Name]; ok {
		for i := ks.first; i < len(vis) && (ks.n < 0 || i < ks.first+ks.n); i++ {
			if vis[i].expr != nil {
				op.Keys = append(op.Keys, vis[i].expr)
			}
		}
	}

	switch op.Name {
	case "SET":
		op.Value = arg(1)
		r.setOptions(op, vis, 2)
	case "SETNX":
		op.Value = arg(1)
		op.TTL = NoTTL
	case "SETEX", "PSETEX":
		op.TTLExpr, op.Value, op.TTL, op.TTLUnit = arg(1), arg(2), Expire, op.Name
	case "DELIFEQ":
		op.Match = arg(1)
	case "DELEX":
		if len(vis) > 1 {
			if vis[1].known {
				op.Cond = vis[1].word
				op.Match = arg(2)
			} else {
				op.Complete = false
			}
		}
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		op.TTLExpr, op.TTLUnit = arg(1), op.Name
	case "INCRBY", "DECRBY":
		op.TTLExpr = arg(1)
	}
}

// inlineScript sets the Script of an EVAL or EVAL_RO whose text e is a
// constant: the Op itself is the definition.
func (r *resolver) inlineScript(op *Op, e ast.Expr) {
	if op.Name != "EVAL" && op.Name != "EVAL_RO" {
		return
	}
	if src, ok := r.str(e); ok {
		op.Script = &Script{Text: src, Def: op.Call, Pos: op.Pos, Inline: true, numKeys: -1}
	}
}

// numkeys reads EVAL's numkeys: an integer constant, or a numeric string
// (radix and glide pass strings).
func (r *resolver) numkeys(e ast.Expr) (int64, bool) {
	if n, ok := r.intVal(e); ok {
		return n, true
	}
	if s, ok := r.str(e); ok {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	return 0, false
}

// setOptions reads SET options from toks[from:].
func (r *resolver) setOptions(op *Op, toks []tok, from int) {
	ttlSeen := false
	for i := from; i < len(toks); i++ {
		t := toks[i]
		if !t.known {
			op.Complete = false
			continue
		}
		switch t.word {
		case "NX":
			op.NX = true
		case "XX":
			op.XX = true
		case "GET":
			op.GET = true
		case "KEEPTTL":
			op.TTL, ttlSeen = KeepTTL, true
		case "IFEQ", "IFNE", "IFDEQ", "IFDNE":
			op.Cond = t.word
			if i+1 < len(toks) {
				op.Match = toks[i+1].expr
				i++
			}
		case "EX", "PX", "EXAT", "PXAT":
			op.TTL, ttlSeen = Expire, true
			if i+1 < len(toks) {
				op.TTLExpr, op.TTLUnit = toks[i+1].expr, t.word
				i++
			}
		default:
			// an unknown option: the server will say; we cannot
			op.Complete = false
		}
	}
	if !ttlSeen {
		if op.Complete {
			op.TTL = NoTTL
		} else {
			op.TTL = UnknownTTL
		}
	}
}
