package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// glide resolves valkey-glide Go v2: client methods (through *baseClient,
// *Client, *ClusterClient or the interfaces package), batch methods
// (pipeline.BaseBatch[T]), scripts and batch execution.
func (r *resolver) glide(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
	switch s.h {
	case hGlBatchNew:
		tx := &Tx{Kind: Pipeline, Pos: call.Pos()}
		if len(a) == 1 {
			atomic, ok := r.boolVal(a[0])
			switch {
			case !ok:
				tx.MaybeMulti = true
			case atomic:
				tx.Kind = Multi
			}
		}
		r.txVar(call, stack, tx)
		return
	case hGlExec:
		// (*Client).Exec(ctx, batch, raiseOnError)
		r.sendTx(argAt(a, 0), call)
		return
	}

	op, done := r.helperOp(info, s, a, call, stack)
	if done {
		return
	}
	switch s.h {
	case hGlSetOptions:
		op.Name = "SET"
		op.Keys = nonNil(argAt(a, 0))
		op.Value = argAt(a, 1)
		r.glideSetOptions(op, argAt(a, 2), call.Pos())
		op.Compressed = r.glideCompressed(receiver(call), 0)
	case hGlKeySlice:
		op.Name = s.cmd
		keys, ok := r.sliceElems(argAt(a, 0))
		op.Keys, op.Complete = keys, ok
	case hGlCustom:
		elems, ok := r.sliceElems(argAt(a, 0))
		if !ok {
			r.drop(op)
			return
		}
		r.rawCall(op, elems, false)
	case hGlInvoke:
		// InvokeScript(ctx, script), InvokeScriptWithOptions(ctx, script, options.ScriptOptions{Keys, Args})
		op.Name = s.cmd
		if len(a) > 1 {
			keys, ok := r.glideScriptKeys(a[1])
			op.Keys, op.Complete = keys, ok
		}
		if len(a) > 0 {
			r.runs = append(r.runs, scriptRun{op: op, recv: a[0]})
		}
	default:
		r.drop(op)
	}
}

// glideScriptKeys reads the keys of options.ScriptOptions{Keys: ...} or
// options.NewScriptOptions().WithKeys(...).
func (r *resolver) glideScriptKeys(e ast.Expr) ([]ast.Expr, bool) {
	e, ok := r.follow(e)
	if !ok {
		return nil, false
	}
	for range 8 {
		switch x := ast.Unparen(e).(type) {
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Keys" {
						return r.sliceElems(kv.Value)
					}
				}
			}
			return nil, true
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil, false
			}
			switch sel.Sel.Name {
			case "WithKeys":
				if len(x.Args) == 1 {
					return r.sliceElems(x.Args[0])
				}
			case "WithArgs":
				e = sel.X
				continue
			case "NewScriptOptions":
				return nil, true
			}
			return nil, false
		}
		return nil, false
	}
	return nil, false
}

// glideSetOptions reads an options.SetOptions argument: a NewSetOptions()
// chain (inline, or a variable with its chain and the Set* calls made on it
// before the send), or an options.SetOptions{...} literal. The condition
// methods override each other, as in glide.
func (r *resolver) glideSetOptions(op *Op, e ast.Expr, before token.Pos) {
	var ttl TTL = -1 // not seen
	cond := ""
	var calls []*ast.CallExpr
	complete := true

	e = ast.Unparen(e)
	for {
		if s, ok := e.(*ast.StarExpr); ok {
			e = ast.Unparen(s.X)
			continue
		}
		break
	}
	var lit *ast.CompositeLit
	// Walk the chain back to its start, following one variable.
	for range 64 {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				complete = false
				goto done
			}
			calls = append([]*ast.CallExpr{x}, calls...)
			if id, ok := sel.X.(*ast.Ident); ok && r.info.Uses[id] != nil {
				if _, isPkg := r.info.Uses[id].(*types.PkgName); isPkg {
					goto done // options.NewSetOptions()
				}
			}
			e = sel.X
		case *ast.Ident:
			o := r.info.Uses[x]
			f, ok := r.follow(x)
			if !ok || f == x {
				complete = false
				goto done
			}
			// Set* calls made on the variable before the send.
			for _, c := range r.x.Calls(o) {
				if c.Pos() < before {
					calls = append(calls, c)
				}
			}
			e = f
		case *ast.UnaryExpr:
			e = x.X
		case *ast.CompositeLit:
			lit = x
			goto done
		default:
			complete = false
			goto done
		}
	}
done:
	setCond := func(c string, match ast.Expr) {
		cond, op.Match = c, match
	}
	if lit != nil {
		literalFields(op, lit, func(name string, v ast.Expr) {
			switch name {
			case "ConditionalSet":
				if c, ok := r.str(v); ok {
					setCond(strings.ToUpper(c), op.Match)
				} else {
					complete = false
				}
			case "ComparisonValue":
				op.Match = v
			case "ReturnOldValue":
				b, ok := r.boolVal(v)
				op.GET = b
				complete = complete && ok
			case "Expiry":
				t, ok := r.glideExpiry(op, v)
				ttl, complete = t, complete && ok
			}
		})
	}
	for _, c := range calls {
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			complete = false
			continue
		}
		arg0 := func() ast.Expr {
			if len(c.Args) == 1 {
				return c.Args[0]
			}
			return nil
		}
		switch sel.Sel.Name {
		case "NewSetOptions":
		case "SetOnlyIfDoesNotExist":
			setCond("NX", nil)
		case "SetOnlyIfExists":
			setCond("XX", nil)
		case "SetOnlyIfEquals":
			setCond("IFEQ", arg0())
		case "SetConditionalSet":
			if s, ok := r.str(arg0()); ok {
				setCond(strings.ToUpper(s), nil)
			} else {
				complete = false
			}
		case "SetReturnOldValue":
			b, ok := r.boolVal(arg0())
			op.GET = b
			complete = complete && ok
		case "SetExpiry":
			t, ok := r.glideExpiry(op, arg0())
			ttl, complete = t, complete && ok
		default:
			complete = false
		}
	}
	switch cond {
	case "NX":
		op.NX = true
	case "XX":
		op.XX = true
	case "":
	default:
		op.Cond = cond
	}
	op.Complete = op.Complete && complete
	switch {
	case ttl >= 0:
		op.TTL = ttl
	case op.Complete:
		op.TTL = NoTTL
	default:
		op.TTL = UnknownTTL
	}
}

// glideExpiry reads an *options.Expiry: NewExpiryIn/NewExpiryAt (a TTL),
// NewExpiryKeepExisting (KEEPTTL), &options.Expiry{Type: ...}, .SetType(t).
func (r *resolver) glideExpiry(op *Op, e ast.Expr) (TTL, bool) {
	if e == nil {
		return UnknownTTL, false
	}
	e, ok := r.follow(e)
	if !ok {
		return UnknownTTL, false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
		return -1, true
	}
	typ := ""
	for range 8 {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Type" && typ == "" {
						s, ok := r.str(kv.Value)
						if !ok {
							return UnknownTTL, false
						}
						typ = strings.ToUpper(s)
					}
					if id, ok := kv.Key.(*ast.Ident); ok && (id.Name == "Duration" || id.Name == "Timestamp") {
						op.TTLExpr = kv.Value
					}
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return UnknownTTL, false
			}
			switch sel.Sel.Name {
			case "SetType":
				if typ == "" && len(x.Args) == 1 {
					s, ok := r.str(x.Args[0])
					if !ok {
						return UnknownTTL, false
					}
					typ = strings.ToUpper(s)
				}
				e = sel.X
				continue
			case "NewExpiryIn", "NewExpiryAt":
				if typ == "" {
					typ = "PX"
				}
				if len(x.Args) == 1 {
					op.TTLExpr = x.Args[0]
				}
			case "NewExpiryKeepExisting":
				if typ == "" {
					typ = "KEEPTTL"
				}
			default:
				return UnknownTTL, false
			}
		default:
			return UnknownTTL, false
		}
		break
	}
	switch typ {
	case "KEEPTTL":
		op.TTLExpr = nil
		return KeepTTL, true
	case "EX", "PX", "EXAT", "PXAT":
		return Expire, true
	}
	return UnknownTTL, false
}

// glideCompressed reports whether a glide client expression is known to
// compress values: it comes from glide.NewClient or NewClusterClient with a
// configuration built with WithCompressionConfiguration (not switched off
// with WithEnabled(false)), through variables and fields set once or more
// (any of them).
func (r *resolver) glideCompressed(e ast.Expr, depth int) bool {
	e = ast.Unparen(e)
	if e == nil || depth > 6 {
		return false
	}
	switch x := e.(type) {
	case *ast.UnaryExpr:
		return r.glideCompressed(x.X, depth+1)
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(r.info, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "github.com/valkey-io/valkey-glide/go/v2" || len(x.Args) == 0 {
			return false
		}
		if fn.Name() == "NewClient" || fn.Name() == "NewClusterClient" {
			return r.compressingConfig(x.Args[0], depth+1)
		}
	case *ast.Ident, *ast.SelectorExpr:
		v, ok := r.x.ObjOf(x).(*types.Var)
		if !ok {
			return false
		}
		writes := r.x.Writes(v)
		if v.IsField() {
			writes = append(append([]syntax.Write(nil), r.x.FieldInits(v)...), writes...)
		}
		for _, w := range writes {
			if w.Rhs != nil && (w.Kind == syntax.Define || w.Kind == syntax.Assign) && r.glideCompressed(w.Rhs, depth+1) {
				return true
			}
		}
	}
	return false
}

// compressingConfig reports whether a glide client configuration enables
// compression: a builder chain or a variable holding one, with a
// WithCompressionConfiguration call (in the chain or on the variable).
func (r *resolver) compressingConfig(e ast.Expr, depth int) bool {
	for range 16 {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return false
			}
			if sel.Sel.Name == "WithCompressionConfiguration" && len(x.Args) == 1 && compressionOn(r.info, x.Args[0]) {
				return true
			}
			e = sel.X
			continue
		case *ast.Ident:
			v, ok := r.x.ObjOf(x).(*types.Var)
			if !ok || depth > 6 {
				return false
			}
			for _, c := range r.x.Calls(v) {
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "WithCompressionConfiguration" && len(c.Args) == 1 && compressionOn(r.info, c.Args[0]) {
					return true
				}
			}
			for _, w := range r.x.Writes(v) {
				if w.Value() != nil && r.compressingConfig(w.Value(), depth+1) {
					return true
				}
			}
		}
		return false
	}
	return false
}

// compressionOn reports whether a compression configuration argument is
// not nil and not switched off with WithEnabled(false) in its chain.
func compressionOn(info *types.Info, e ast.Expr) bool {
	for range 16 {
		e = ast.Unparen(e)
		if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
			return false
		}
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if sel.Sel.Name == "WithEnabled" && len(call.Args) == 1 {
			if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.String() == "false" {
				return false
			}
		}
		e = sel.X
	}
	return true
}
