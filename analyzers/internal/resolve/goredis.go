package resolve

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// goRedis resolves go-redis (v6-v9) helpers and the go-redis shaped compat
// adapters of valkey-go and rueidis.
func (r *resolver) goRedis(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	a := args(fn.Signature(), call)
	spread := call.Ellipsis.IsValid()
	if r.group(s, a, call, stack) {
		return
	}
	op, done := r.helperOp(info, s, a, call, stack)
	if done {
		return
	}
	switch s.h {
	case hEval:
		r.eval(op, s, a, spread)
	case hDo:
		r.rawCall(op, a, spread)
	case hProcess:
		r.process(op, argAt(a, 0))
	case hScriptRun:
		// (*Script).Run(ctx, c Scripter, keys []string, args...)
		op.Name = s.cmd
		op.conn = r.rootObj(argAt(a, 0))
		r.runArgs(op, a, spread)
		r.runs = append(r.runs, scriptRun{op: op, recv: receiver(call)})
	default:
		r.drop(op)
	}
}

// group records a call that groups commands rather than sending one:
// TxPipelined/Pipelined (a callback), TxPipeline()/Pipeline() (a pipeline
// variable), Pipeliner.Exec (the group's sender). It reports whether s is
// one of these.
func (r *resolver) group(s spec, a []ast.Expr, call *ast.CallExpr, stack []ast.Node) bool {
	switch s.h {
	case hTxFunc:
		r.txFunc(s, a, call)
	case hTxNew:
		r.txVar(call, stack, &Tx{Kind: s.tx, Pos: call.Pos()})
	case hTxExec:
		r.sendTx(receiver(call), call)
	default:
		return false
	}
	return true
}

// helperOp starts the Op of a typed helper sent on its receiver, and fills
// it when the helper has one of the shapes typed knows (done).
func (r *resolver) helperOp(info *pkgInfo, s spec, a []ast.Expr, call *ast.CallExpr, stack []ast.Node) (op *Op, done bool) {
	op = r.newOp(Command, info, call, stack)
	op.conn = r.rootObj(receiver(call))
	op.Args = a
	return op, r.typed(op, info, s, a, call.Ellipsis.IsValid())
}

// txFunc records a callback that gets the pipeline
// (TxPipelined(ctx, func(pipe Pipeliner) error {...})): commands sent on
// pipe inside the callback are queued in the group.
func (r *resolver) txFunc(s spec, a []ast.Expr, call *ast.CallExpr) {
	if len(a) != 1 {
		return
	}
	if lit, ok := ast.Unparen(a[0]).(*ast.FuncLit); ok {
		if ps := lit.Type.Params.List; len(ps) > 0 && len(ps[0].Names) > 0 {
			if o := r.info.Defs[ps[0].Names[0]]; o != nil {
				r.txByObj[o] = &Tx{Kind: s.tx, Pos: call.Pos()}
			}
		}
	}
}

// runArgs fills a script run's Args and Keys from (x, keys []string,
// args...), where x is the client (go-redis Run, valkey-go Exec) or the
// script (go-zero ScriptRun).
func (r *resolver) runArgs(op *Op, a []ast.Expr, spread bool) {
	op.Args = a[min(1, len(a)):]
	r.keysAndArgv(op, a[min(1, len(a)):], spread)
}

// keysAndArgv reads (keys []string, args...) of a script run or EVAL:
// the keys, and the ARGV values when they are visible. go-redis flattens
// a slice passed among args, so one []string{...} argument is its
// elements.
func (r *resolver) keysAndArgv(op *Op, a []ast.Expr, spread bool) {
	op.keysArg = argAt(a, 0)
	if keys, ok := r.sliceElems(op.keysArg); ok {
		op.Keys = keys
	} else {
		op.Complete = false
	}
	if len(a) < 2 {
		return
	}
	argv := a[1:]
	switch {
	case spread:
		if es, ok := r.collectedElems(argv[len(argv)-1]); ok {
			op.argv = append(argv[:len(argv)-1:len(argv)-1], es...)
		} else if len(argv) == 1 {
			op.argvFrom = argv[0]
		}
	case len(argv) == 1 && isSlice(r.info.TypeOf(argv[0])):
		if es, ok := r.sliceElems(argv[0]); ok {
			op.argv = es
		} else {
			op.argvFrom = argv[0]
		}
	default:
		op.argv = argv
	}
}

func isSlice(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// eval fills an Op from Eval(script|sha, keys []string, args...).
func (r *resolver) eval(op *Op, s spec, a []ast.Expr, spread bool) {
	op.Name = s.cmd
	op.text = argAt(a, 0)
	r.inlineScript(op, op.text)
	r.keysAndArgv(op, a[min(1, len(a)):], spread)
	if op.Name == "EVALSHA" || op.Name == "EVALSHA_RO" {
		r.runs = append(r.runs, scriptRun{op: op, recv: op.text, sha: true})
	}
}

// goRedisDialect is what differs between go-redis's versions and its
// compat adapters (knowledge.go's rows): whether the KeepTTL (-1) sentinel
// exists (v8+), and whether SetNX(..., 0) sends the legacy SETNX (v6-v8,
// the compat adapters).
type goRedisDialect struct{ keepTTL, legacySetNX bool }

// goRedisDialectOf is a package's dialect; the zero one for glide, whose
// helpers share go-redis's shapes.
func goRedisDialectOf(info *pkgInfo) goRedisDialect {
	d, _ := info.dialect.(goRedisDialect)
	return d
}

// typed fills an Op from a typed helper whose arguments (after ctx) are
// key, value, expiration ... in go-redis order; glide's helpers share the
// shapes. It reports whether s.h was one of these forms.
func (r *resolver) typed(op *Op, info *pkgInfo, s spec, a []ast.Expr, spread bool) bool {
	switch s.h {
	case hSet, hSetEx:
		op.Name = s.cmd
		op.Keys = nonNil(argAt(a, 0))
		op.Value = argAt(a, 1)
		op.NX, op.XX = s.nx, s.xx
		if s.h == hSetEx {
			op.TTL, op.TTLExpr = Expire, argAt(a, 2)
			return true
		}
		r.durationTTL(op, info, argAt(a, 2))
		if s.nx && goRedisDialectOf(info).legacySetNX && op.TTL == NoTTL {
			op.Name, op.NX = "SETNX", false
		}
	case hSetMatch:
		op.Name, op.Cond, op.GET = "SET", s.cond, s.get
		op.Keys = nonNil(argAt(a, 0))
		op.Value, op.Match = argAt(a, 1), argAt(a, 2)
		r.durationTTL(op, info, argAt(a, 3))
	case hSetArgs:
		op.Name = "SET"
		op.Keys = nonNil(argAt(a, 0))
		op.Value = argAt(a, 1)
		r.setArgs(op, argAt(a, 2))
	case hDelExArgs:
		op.Name = "DELEX"
		op.Keys = nonNil(argAt(a, 0))
		r.delExArgs(op, argAt(a, 1))
	case hKeys:
		op.Name = s.cmd
		op.Keys, op.Complete = r.variadic(a, spread)
		if spread && !op.Complete && len(a) == 1 {
			op.keysArg = a[0]
		}
	case hKey:
		op.Name = s.cmd
		op.Keys = nonNil(argAt(a, 0))
	case hKeyAmount:
		op.Name = s.cmd
		op.Keys = nonNil(argAt(a, 0))
		op.TTLExpr = argAt(a, 1)
	case hNoKey:
		op.Name = s.cmd
	default:
		return false
	}
	return true
}

// rawCall fills an Op from raw arguments whose first is the command name;
// an Op whose command is not visible is dropped.
func (r *resolver) rawCall(op *Op, a []ast.Expr, spread bool) {
	toks := r.tokens(a, spread)
	if len(toks) == 0 || !toks[0].known {
		r.drop(op)
		return
	}
	r.fillRaw(op, toks[0].word, toks[1:])
}

// process reads Process(ctx, cmd) where cmd is built by New*Cmd(ctx, args...).
func (r *resolver) process(op *Op, e ast.Expr) {
	e, _ = r.follow(e)
	c, ok := e.(*ast.CallExpr)
	if !ok {
		r.drop(op)
		return
	}
	fn := r.calleeFunc(c)
	if fn == nil || r.pkgInfoOf(fn.Pkg()) == nil || !strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Cmd") || fn.Signature().Recv() != nil {
		r.drop(op)
		return
	}
	op.Expr = c
	r.rawCall(op, args(fn.Signature(), c), c.Ellipsis.IsValid())
}

// drop removes an Op that turned out not to be a command.
func (r *resolver) drop(op *Op) {
	for i := len(r.ops) - 1; i >= 0; i-- {
		if r.ops[i] == op {
			r.ops = append(r.ops[:i], r.ops[i+1:]...)
			return
		}
	}
}

func nonNil(es ...ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, e := range es {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// variadic returns the keys of a keys ...string parameter; complete is false
// when a spread slice is not visible. In code that does not compile the
// spread may be the only argument, taken for the leading context
// (Del(keys...)): nothing is left to read.
func (r *resolver) variadic(a []ast.Expr, spread bool) ([]ast.Expr, bool) {
	if !spread {
		return a, true
	}
	if len(a) == 0 {
		return nil, false
	}
	keys := append([]ast.Expr(nil), a[:len(a)-1]...)
	elems, ok := r.sliceElems(a[len(a)-1])
	return append(keys, elems...), ok
}

// durationTTL reads a go-redis expiration argument (TTLExpr is set only
// for a TTL). A constant (or a
// variable assigned once from a constant) decides: 0 or negative is no TTL,
// KeepTTL (-1, where the client has it) is KEEPTTL, positive is a TTL. Any
// other expression is taken as a TTL (Expire): it is usually a configured
// lease, and treating it as unknown would hide nothing a rule could prove.
func (r *resolver) durationTTL(op *Op, info *pkgInfo, e ast.Expr) {
	if e == nil {
		op.TTL = NoTTL
		return
	}
	op.TTLExpr = e
	v := r.constValue(e)
	if v == nil {
		op.TTL, op.durTTL = Expire, true
		return
	}
	n, exact := constant.Int64Val(constant.ToInt(v))
	switch {
	case !exact:
		op.TTL = Expire
	case n == -1 && goRedisDialectOf(info).keepTTL:
		op.TTL, op.TTLExpr = KeepTTL, nil
	case n <= 0:
		op.TTL, op.TTLExpr = NoTTL, nil
	default:
		op.TTL = Expire
	}
}

// literalFields calls fn for each Key: Value field of a composite literal.
// It returns false, marking the Op incomplete, when e is not a literal; a
// positional element also makes the Op incomplete.
func literalFields(op *Op, e ast.Expr, fn func(name string, v ast.Expr)) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		op.Complete = false
		return false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			op.Complete = false
			continue
		}
		if id, _ := kv.Key.(*ast.Ident); id != nil {
			fn(id.Name, kv.Value)
		}
	}
	return true
}

// mode reads the Mode field that SetArgs and DelExArgs share, upper-cased;
// ok is false (and the Op incomplete) when it is not a constant.
func (r *resolver) mode(op *Op, v ast.Expr) (string, bool) {
	m, ok := r.str(v)
	if !ok {
		op.Complete = false
	}
	return strings.ToUpper(m), ok
}

// match reads the MatchValue/MatchDigest fields both option structs carry.
func match(op *Op, name string, v ast.Expr) {
	switch name {
	case "MatchValue":
		op.Match = v
	case "MatchDigest":
		if op.Match == nil {
			op.Match = v
		}
	}
}

// setArgs reads a redis.SetArgs composite literal; anything else leaves the
// options unknown.
func (r *resolver) setArgs(op *Op, e ast.Expr) {
	ttl := NoTTL
	ok := literalFields(op, e, func(name string, v ast.Expr) {
		switch name {
		case "Mode":
			m, ok := r.mode(op, v)
			if !ok {
				return
			}
			switch m {
			case "NX":
				op.NX = true
			case "XX":
				op.XX = true
			case "IFEQ", "IFNE", "IFDEQ", "IFDNE":
				op.Cond = m
			case "":
			default:
				op.Complete = false
			}
		case "TTL":
			tmp := &Op{}
			r.durationTTL(tmp, &pkgInfo{}, v)
			if tmp.TTL == Expire && ttl != KeepTTL {
				ttl, op.TTLExpr = Expire, v
			}
		case "ExpireAt":
			if !isZeroTime(v) {
				ttl, op.TTLExpr = Expire, v
			}
		case "KeepTTL":
			b, ok := r.boolVal(v)
			switch {
			case !ok:
				op.Complete = false
			case b:
				ttl = KeepTTL
			}
		case "Get":
			b, ok := r.boolVal(v)
			if !ok {
				op.Complete = false
			}
			op.GET = b
		default:
			match(op, name, v)
		}
	})
	if !ok {
		op.TTL = UnknownTTL
		return
	}
	if ttl == NoTTL && !op.Complete {
		ttl = UnknownTTL
	}
	op.TTL = ttl
}

func isZeroTime(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && len(lit.Elts) == 0
}

// delExArgs reads a redis.DelExArgs composite literal.
func (r *resolver) delExArgs(op *Op, e ast.Expr) {
	literalFields(op, e, func(name string, v ast.Expr) {
		if name == "Mode" {
			if m, ok := r.mode(op, v); ok {
				op.Cond = m
			}
			return
		}
		match(op, name, v)
	})
}

// txVar records a pipeline/batch assigned to a variable (pipe :=
// rdb.TxPipeline()); commands sent on the variable join the group.
func (r *resolver) txVar(call *ast.CallExpr, stack []ast.Node, tx *Tx) {
	if len(stack) < 2 {
		return
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.AssignStmt:
		for i, rhs := range p.Rhs {
			if ast.Unparen(rhs) == call && i < len(p.Lhs) {
				if id, ok := p.Lhs[i].(*ast.Ident); ok {
					o := r.info.Defs[id]
					if o == nil {
						o = r.info.Uses[id]
					}
					if o != nil {
						r.txByObj[o] = tx
					}
				}
			}
		}
	case *ast.ValueSpec:
		for i, v := range p.Values {
			if ast.Unparen(v) == call && i < len(p.Names) {
				if o := r.info.Defs[p.Names[i]]; o != nil {
					r.txByObj[o] = tx
				}
			}
		}
	}
}
