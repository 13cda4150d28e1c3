package resolve

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// valkey resolves valkey-go and rueidis client calls: Do/DoMulti/DoCache
// with builder chains, and Lua scripts.
func (r *resolver) valkey(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
	conn := r.rootObj(receiver(call))
	switch s.h {
	case hVkDo:
		if len(a) > 0 {
			if op := r.builderOp(info, call, stack, a[0]); op != nil {
				op.conn = conn
			}
		}
	case hVkDoMulti:
		elems, complete := r.spreadElems(a, call.Ellipsis.IsValid())
		var ops []*Op
		for _, e := range elems {
			op := r.builderOp(info, call, stack, e)
			if op == nil {
				complete = false
				continue
			}
			op.conn = conn
			ops = append(ops, op)
		}
		if len(ops) == 0 {
			return
		}
		// One round trip; the commands between a MULTI and the last EXEC
		// form a transaction (DoMulti(ctx, WATCH?, MULTI, ..., EXEC)).
		pipe := &Tx{Kind: Pipeline, Pos: call.Pos()}
		for _, op := range ops {
			op.Tx = pipe
		}
		multi, exec := -1, -1
		for i, op := range ops {
			switch {
			case op.Name == "MULTI" && multi < 0:
				multi = i
			case op.Name == "EXEC":
				exec = i
			}
		}
		if complete && multi >= 0 && exec > multi {
			tx := &Tx{Kind: Multi, Pos: call.Pos()}
			ops[multi].boundary, ops[exec].boundary = true, true
			for _, op := range ops[multi+1 : exec] {
				op.Tx = tx
			}
		}
	case hLuaExec:
		// (*Lua).Exec(ctx, c Client, keys, args []string)
		op := r.newOp(Command, info, call, stack)
		op.conn = r.rootObj(argAt(a, 0))
		r.runArgs(op, a, call.Ellipsis.IsValid())
		r.runs = append(r.runs, scriptRun{op: op, recv: receiver(call)})
	case hLuaExecMult:
		// (*Lua).ExecMulti(ctx, c Client, multi ...LuaExec{Keys, Args})
		if len(a) < 1 {
			return
		}
		c := r.rootObj(a[0])
		execs, ok := r.spreadElems(a[1:], call.Ellipsis.IsValid())
		if !ok {
			op := r.newOp(Command, info, call, stack)
			op.conn, op.Complete = c, false
			r.runs = append(r.runs, scriptRun{op: op, recv: receiver(call)})
		}
		for _, e := range execs {
			op := r.newOp(Command, info, call, stack)
			op.conn = c
			op.Args = []ast.Expr{e}
			op.Complete = false
			if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
				op.Complete = true
				for _, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Keys" {
							keys, ok := r.sliceElems(kv.Value)
							op.Keys, op.Complete = keys, ok
						}
					}
				}
			}
			r.runs = append(r.runs, scriptRun{op: op, recv: receiver(call)})
		}
	}
}

// spreadElems returns the arguments with a spread last one (cmds...)
// replaced by the elements collectedElems sees; ok is false when some are
// not visible.
func (r *resolver) spreadElems(a []ast.Expr, spread bool) ([]ast.Expr, bool) {
	if !spread || len(a) == 0 {
		return a, true
	}
	vis, ok := r.collectedElems(a[len(a)-1])
	return append(a[:len(a)-1:len(a)-1], vis...), ok
}

// collectedElems returns the elements of a slice variable sent with
// cmds...: its literal and the elements appended to it before the send.
// ok is false when some elements are not visible.
func (r *resolver) collectedElems(e ast.Expr) ([]ast.Expr, bool) {
	id, isID := ast.Unparen(e).(*ast.Ident)
	if !isID {
		return r.sliceElems(e)
	}
	o := r.info.Uses[id]
	if o == nil || o.Pkg() != r.pass.Pkg {
		return nil, false
	}
	if r.x.AddrTaken(o) {
		return nil, false
	}
	var out []ast.Expr
	complete, seen := true, false
	for _, w := range r.writesOf(o) {
		if w.Pos > id.Pos() {
			continue
		}
		seen = true
		switch x := ast.Unparen(w.Value()).(type) {
		case *ast.CompositeLit:
			out = append(out, x.Elts...)
		case *ast.CallExpr:
			switch {
			case isAppendTo(r.info, x, o):
				out = append(out, x.Args[1:]...)
				if x.Ellipsis.IsValid() {
					out = out[:len(out)-1]
					complete = false
				}
			case isBuiltin(r.info, x, "make"):
			default:
				complete = false
			}
		case nil:
			if w.Kind != syntax.Zero || w.Embed != "" {
				complete = false
			}
		default:
			complete = false
		}
	}
	// A parameter (or a variable set only later) holds what the caller
	// passes: nothing here is visible.
	return out, complete && seen
}

func isBuiltin(info *types.Info, c *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = info.Uses[id].(*types.Builtin)
	return ok
}

// bstep is one method call of a builder chain.
type bstep struct {
	name    string
	args    []ast.Expr
	spread  bool
	builder bool // a method of Builder: the command
}

// chain walks a builder chain backwards from its last call to the Builder
// step, following variables to their assignment. complete is false when a
// variable is assigned more than once (its first assignment is used to
// name the command). found is false when e is not a builder chain.
func (r *resolver) chain(e ast.Expr) (steps []bstep, complete, found bool) {
	complete = true
	for range 256 {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.CallExpr:
			fn := r.calleeFunc(x)
			if fn == nil {
				return nil, false, false
			}
			if pi := r.pkgInfoOf(fn.Pkg()); pi == nil || !pi.builder {
				return nil, false, false
			}
			r.consumed[x] = true
			complete = complete && arityOK(fn, x)
			st := bstep{name: fn.Name(), args: x.Args, spread: x.Ellipsis.IsValid(), builder: RecvName(fn) == "Builder"}
			steps = append(steps, st) // last call first; reversed once found
			if st.builder {
				slices.Reverse(steps)
				return steps, complete, true
			}
			e = receiver(x)
			if e == nil {
				return nil, false, false
			}
		case *ast.Ident:
			f, ok := r.follow(x)
			if !ok {
				// a link of the chain assigned more than once: name the
				// command from its first assignment
				ws := r.writesOf(r.info.Uses[x])
				if len(ws) == 0 || ws[0].Value() == nil {
					return nil, false, false
				}
				f, complete = ws[0].Value(), false
			}
			if f == e {
				return nil, false, false
			}
			e = f
		default:
			return nil, false, false
		}
	}
	return nil, false, false
}

// builderOp makes the Op a builder chain e builds, sent by sender. A
// variable assigned several commands gives one incomplete Op per assignment
// (the sender sends one of them); the first is returned.
func (r *resolver) builderOp(info *pkgInfo, sender *ast.CallExpr, stack []ast.Node, e ast.Expr) *Op {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if o, ok := r.info.Uses[id].(*types.Var); ok && o.Pkg() == r.pass.Pkg && !r.building[o] {
			if ws := r.writesOf(o); len(ws) > 1 {
				r.building[o] = true // x = x, or variables assigned from each other
				defer delete(r.building, o)
				var first *Op
				for _, w := range ws {
					// only assignments of a chain: an alias of another
					// variable (b = a) would multiply the alternatives
					if _, isCall := ast.Unparen(w.Value()).(*ast.CallExpr); !isCall {
						continue
					}
					if op := r.builderOp(info, sender, stack, w.Value()); op != nil {
						op.Complete = false
						if op.Name == "SET" && op.TTL == NoTTL {
							op.TTL = UnknownTTL
						}
						if first == nil {
							first = op
						}
					}
				}
				if first != nil {
					return first
				}
			}
		}
	}
	steps, complete, found := r.chain(e)
	if !found || len(steps) == 0 {
		return nil
	}
	name, toks, ok := r.builderTokens(steps)
	if !ok {
		return nil
	}
	op := r.newOp(Command, info, sender, stack)
	op.Pos = outermostCall(stack).Pos()
	op.Expr = ast.Unparen(e)
	op.Complete = complete
	for _, st := range steps[1:] {
		if _, known := builderSteps[st.name]; !known {
			op.Complete = false
		}
	}
	r.fillRaw(op, name, toks)
	return op
}

// builderTokens turns a chain into a command name and argument tokens.
func (r *resolver) builderTokens(steps []bstep) (string, []tok, bool) {
	first := steps[0]
	var name string
	var toks []tok
	if first.name == "Arbitrary" {
		all := r.tokens(first.args, first.spread)
		if len(all) == 0 || !all[0].known {
			return "", nil, false
		}
		name, toks = all[0].word, all[1:]
	} else {
		name = builderCommands[first.name]
		if name == "" {
			name = commandName(first.name)
		}
	}
	for _, st := range steps[1:] {
		ss := builderSteps[st.name]
		switch ss.kind {
		case stepArg:
			toks = append(toks, r.tokens(st.args, st.spread)...)
		case stepKey:
			for _, t := range r.tokens(st.args, st.spread) {
				t.key = true
				toks = append(toks, t)
			}
		case stepWord:
			toks = append(toks, wordTok(ss.word))
		case stepWordArg:
			toks = append(toks, wordTok(ss.word))
			toks = append(toks, r.tokens(st.args, st.spread)...)
		}
	}
	return name, toks, true
}

// commandName turns a builder method name into its command: Getdel ->
// GETDEL, ClientTracking -> CLIENT TRACKING.
func commandName(method string) string {
	var b strings.Builder
	for i, c := range method {
		if i > 0 && unicode.IsUpper(c) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToUpper(c))
	}
	return b.String()
}

// noteChain records the outermost call of a builder chain that ends in a
// command (Completed, Cacheable), so a chain no sender consumed still
// becomes an Op.
func (r *resolver) noteChain(fn *types.Func, info *pkgInfo, _ spec, call *ast.CallExpr, stack []ast.Node) {
	res := fn.Signature().Results()
	if res.Len() != 1 {
		return
	}
	n, ok := types.Unalias(res.At(0).Type()).(*types.Named)
	if !ok || (n.Obj().Name() != "Completed" && n.Obj().Name() != "Cacheable") {
		return
	}
	if len(stack) >= 2 {
		if sel, ok := stack[len(stack)-2].(*ast.SelectorExpr); ok && sel.X == call {
			return // the chain goes on (Build().Pin())
		}
	}
	r.chains = append(r.chains, pending{expr: call, info: info, stack: append([]ast.Node(nil), stack...)})
}

// leftovers turns builder chains and radix actions no sender consumed into
// Ops, reported where they are built.
func (r *resolver) leftovers() {
	for _, p := range r.chains {
		if r.consumed[p.expr] {
			continue
		}
		call := p.expr.(*ast.CallExpr)
		switch {
		case p.info.builder:
			r.builderOp(p.info.cmdsOf, call, p.stack, call)
		case p.info.client.API == APIAction:
			r.radixAction(p.info, call, p.stack, call, nil, nil)
		}
	}
}
