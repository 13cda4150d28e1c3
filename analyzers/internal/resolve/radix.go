package resolve

import (
	"go/ast"
	"go/types"
)

// radixDialect is what differs between radix's versions (knowledge.go's
// rows): v4's signatures (no key argument in FlatCmd, no key count in
// NewEvalScript, NewPipeline/Append).
type radixDialect struct{ v4 bool }

// radix resolves radix v3/v4: actions (Cmd, FlatCmd, EvalScript.Cmd,
// pipelines) sent by a client's or connection's Do.
func (r *resolver) radix(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
	switch s.h {
	case hRxDo:
		if len(a) == 1 {
			r.radixAction(info, call, stack, a[0], r.rootObj(receiver(call)), nil)
		}
	case hRxAction:
		// an action that no Do consumes is still a command, reported where
		// it is built (it is sent later, e.g. from a slice of actions)
		r.chains = append(r.chains, pending{expr: call, info: info, stack: append([]ast.Node(nil), stack...)})
	}
}

// radixAction resolves an action sent by sender (a Do call, or the action
// call itself for a leftover).
func (r *resolver) radixAction(info *pkgInfo, sender *ast.CallExpr, stack []ast.Node, e ast.Expr, conn types.Object, tx *Tx) {
	var pipeVar types.Object
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		pipeVar = r.info.Uses[id]
	}
	e, ok := r.follow(e)
	if !ok {
		return
	}
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return
	}
	fn := r.calleeFunc(c)
	if fn == nil {
		return
	}
	pi := r.pkgInfoOf(fn.Pkg())
	if pi == nil || pi.client.API != APIAction {
		return
	}
	d, _ := pi.dialect.(radixDialect)
	v4 := d.v4
	recv := RecvName(fn)
	switch {
	case recv == "" && fn.Name() == "Pipeline" && !v4:
		// v3: radix.Pipeline(cmds...)
		r.consumed[c] = true
		ptx := &Tx{Kind: Pipeline, Pos: sender.Pos()}
		for _, el := range c.Args {
			r.radixAction(pi, sender, stack, el, conn, ptx)
		}
		return
	case recv == "" && fn.Name() == "NewPipeline" && v4 && pipeVar != nil:
		// v4: p := radix.NewPipeline(); p.Append(a); client.Do(ctx, p)
		ptx := &Tx{Kind: Pipeline, Pos: sender.Pos()}
		for _, ac := range r.x.Calls(pipeVar) {
			if ac.Pos() < sender.Pos() && len(ac.Args) == 1 {
				if sel, ok := ast.Unparen(ac.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Append" {
					r.radixAction(pi, sender, stack, ac.Args[0], conn, ptx)
				}
			}
		}
		return
	case recv != "" && recv != "EvalScript":
		return
	}
	if recv == "" && fn.Name() != "Cmd" && fn.Name() != "FlatCmd" {
		return
	}
	r.consumed[c] = true
	op := r.newOp(Command, pi, sender, stack)
	op.Expr = c
	op.conn = conn
	op.Tx = tx
	if tx != nil {
		op.Pos = sender.Pos()
	}
	spread := c.Ellipsis.IsValid()
	a := c.Args
	switch {
	case recv == "EvalScript":
		op.Name = "EVALSHA"
		if len(a) == 0 {
			return
		}
		rest := a[1:]
		op.Args = rest
		if v4 || fn.Name() == "FlatCmd" {
			// Cmd/FlatCmd(rcv, keys []string, args...)
			if len(rest) > 0 {
				keys, ok := r.sliceElems(rest[0])
				op.Keys, op.Complete = keys, ok
			}
			r.runs = append(r.runs, scriptRun{op: op, recv: receiver(c)})
			return
		}
		// v3 Cmd(rcv, keysAndArgs ...string)
		r.runs = append(r.runs, scriptRun{op: op, recv: receiver(c), split: true, rest: rest, spread: spread})
	case fn.Name() == "Cmd":
		// Cmd(rcv, cmd, args ...string)
		if len(a) < 2 {
			r.drop(op)
			return
		}
		r.rawCall(op, a[1:], spread)
	case fn.Name() == "FlatCmd":
		// v3 FlatCmd(rcv, cmd, key, args...), v4 FlatCmd(rcv, cmd, args...):
		// arguments are flattened, so a slice, map or struct has an
		// unknown length.
		if len(a) < 2 {
			r.drop(op)
			return
		}
		name, ok := r.str(a[1])
		if !ok {
			r.drop(op)
			return
		}
		var toks []tok
		for i, x := range a[2:] {
			if (spread && i == len(a)-3) || !r.flatScalar(x) {
				toks = append(toks, tok{expr: x, spread: true})
				continue
			}
			t := r.exprTok(x)
			t.key = !v4 && i == 0 // v3 FlatCmd(rcv, cmd, key, args...)
			toks = append(toks, t)
		}
		r.fillRaw(op, name, toks)
	}
}

// flatScalar reports whether FlatCmd sends x as exactly one argument.
func (r *resolver) flatScalar(x ast.Expr) bool {
	t := r.info.TypeOf(x)
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}
