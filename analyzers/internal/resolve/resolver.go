package resolve

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// resolver holds one package's resolution state.
type resolver struct {
	pass *analysis.Pass
	info *types.Info
	x    *syntax.Index

	ops []*Op

	// txByObj maps a pipeline/batch variable (or a TxPipelined callback's
	// parameter) to its group.
	txByObj map[types.Object]*Tx
	// consumed marks builder chains and radix actions that a sender call
	// already turned into Ops.
	consumed map[ast.Expr]bool
	// chains lists the outermost builder chains and radix actions seen,
	// with their stacks, for the ones no sender consumed.
	chains []pending
	// scriptByCall maps a constructor call to its Script.
	scriptByCall map[*ast.CallExpr]*Script
	// runs are script-run Ops whose script is found after the walk.
	runs []scriptRun
	// building guards builderOp against variables assigned from each other.
	building map[types.Object]bool
	// w is the state of the package's wrappers (wrapper.go).
	w wrapperState
	// classified marks the scripts lua.Analyze has read.
	classified map[*Script]bool
	// wrappersOut are the package's summarised wrappers (Result.Wrappers).
	wrappersOut map[*types.Func]*Summary
	// mirrored caches clientMethod: a project interface method and the
	// client command method it mirrors (nil if none).
	mirrored map[*types.Func]*types.Func
	// ports caches unimplemented: whether a client-interface method has
	// no implementation in view (port).
	ports map[*types.Func]bool
	// hashed caches hashedScript: the script an EVALSHA run sends by a
	// SHA computed in Go.
	hashed map[hashedRun]*Script
}

type pending struct {
	expr  ast.Expr
	info  *pkgInfo
	stack []ast.Node
}

type scriptRun struct {
	op   *Op
	recv ast.Expr // the script object expression
	// split: redigo/radix v3 pass keysAndArgs (rest), whose first numKeys
	// are keys; spread when the last is args...
	split  bool
	rest   []ast.Expr
	spread bool
	// sha: recv is the SHA1 an EVALSHA sends (resolver.shaScript).
	sha bool
}

func newResolver(pass *analysis.Pass) *resolver {
	return &resolver{
		pass:         pass,
		info:         pass.TypesInfo,
		x:            syntax.Of(pass),
		txByObj:      map[types.Object]*Tx{},
		consumed:     map[ast.Expr]bool{},
		scriptByCall: map[*ast.CallExpr]*Script{},
		building:     map[types.Object]bool{},
	}
}

func stripVendor(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	return strings.TrimPrefix(path, "vendor/")
}

func (r *resolver) pkgInfoOf(p *types.Package) *pkgInfo {
	if p == nil {
		return nil
	}
	return known(stripVendor(p.Path()))
}

// calleeFunc returns the function or method a call calls, generic ones
// normalised to their origin (glide's BaseBatch[T]); nil for builtins,
// conversions, calls of function values and of functions without a package.
func (r *resolver) calleeFunc(c *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(r.info, c).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return fn.Origin()
}

// callee resolves a call of fn to a known function: the package's
// knowledge and the spec.
func (r *resolver) callee(fn *types.Func) (*pkgInfo, spec, bool) {
	info := r.pkgInfoOf(fn.Pkg())
	if info == nil {
		return nil, spec{}, false
	}
	if info.builder {
		return info, spec{}, true
	}
	s, ok := info.lookup(RecvName(fn), fn.Name())
	if !ok || s.h == hSkip {
		return nil, spec{}, false
	}
	return info, s, true
}

// RecvName is the name of a method's receiver type ("" for a function):
// the named type behind pointers and aliases, or the declaring interface.
func RecvName(fn *types.Func) string {
	sig := fn.Signature()
	if sig.Recv() == nil {
		return ""
	}
	t := types.Unalias(sig.Recv().Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return "?" // a method of an unnamed interface: never a spec receiver
}

// args returns the arguments of a call of a function with signature sig
// without a leading context.Context.
func args(sig *types.Signature, call *ast.CallExpr) []ast.Expr {
	if sig.Params().Len() > 0 && syntax.IsContext(sig.Params().At(0).Type()) && len(call.Args) > 0 {
		return call.Args[1:]
	}
	return call.Args
}

// argAt returns a[i], or nil when the call passes fewer arguments.
func argAt(a []ast.Expr, i int) ast.Expr {
	if i < len(a) {
		return a[i]
	}
	return nil
}

// newOp starts an Op for a call.
func (r *resolver) newOp(kind Kind, info *pkgInfo, call *ast.CallExpr, stack []ast.Node) *Op {
	op := &Op{Kind: kind, Client: info.client, Call: call, Pos: call.Pos(), Complete: true}
	r.place(op, stack)
	r.ops = append(r.ops, op)
	return op
}

// receiver returns the receiver expression of a method call (nil for a
// function call).
func receiver(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// rootObj finds the variable a connection/pipeline expression stands for
// (syntax.Root).
func (r *resolver) rootObj(e ast.Expr) types.Object { return r.x.Root(e) }

// outermostCall is the position of the outermost call of the expression
// statement holding the call at the end of stack (the rule contract's
// position for builder chains).
func outermostCall(stack []ast.Node) ast.Node {
	var out ast.Node = stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			out = n
		case *ast.SelectorExpr, *ast.ParenExpr, *ast.StarExpr, *ast.UnaryExpr, *ast.IndexExpr, *ast.TypeAssertExpr:
		default:
			return out
		}
	}
	return out
}

// call resolves one call expression.
func (r *resolver) call(call *ast.CallExpr, stack []ast.Node) {
	fn := r.calleeFunc(call)
	if fn == nil {
		r.funcValue(call, stack)
		return
	}
	if m := r.clientMethod(fn); m != nil {
		fn = m
	}
	if info, s, ok := r.port(fn); ok {
		r.send(fn, info, s, call, stack)
		return
	}
	if fn.Pkg() == r.pass.Pkg {
		// A package's calls to itself are its implementation, not client
		// use — unless the callee is a wrapper.
		r.noteLocal(fn, call, stack)
		return
	}
	info, s, ok := r.callee(fn)
	if !ok {
		if info == nil && r.implementedHere(fn) {
			// An interface of another package whose implementations are
			// here (lock.Lock(key, ttl, mark) on a locker.Locker this
			// package's *Lock implements): judged by them, like the
			// package's own interfaces (forwarder).
			r.noteLocal(fn, call, stack)
			return
		}
		if info == nil {
			sum := r.importedSummary(fn)
			if sum == nil && isInterfaceMethod(fn) {
				sum = r.moduleForwarder(fn)
			}
			if sum != nil {
				r.viaCall(fn, sum, nil, call, stack)
			}
		}
		return
	}
	r.send(fn, info, s, call, stack)
}

// send resolves a call of a known client function (or of a client
// interface's method: port) into its Ops.
func (r *resolver) send(fn *types.Func, info *pkgInfo, s spec, call *ast.CallExpr, stack []ast.Node) {
	before := len(r.ops)
	defer func() {
		// Code that does not compile (the layer runs despite errors) may
		// pass the wrong number of arguments: nothing positional is certain.
		if !arityOK(fn, call) {
			for _, op := range r.ops[min(before, len(r.ops)):] {
				op.Complete = false
				if op.TTL == NoTTL {
					op.TTL = UnknownTTL
				}
			}
		}
	}()
	if s.h == hScriptNew {
		// every client's script constructor has the same shape (spec.arg)
		r.scriptDef(info, s, call, args(fn.Signature(), call), stack)
		return
	}
	info.handle(r, fn, info, s, call, stack)
}

// arityOK reports whether a call passes as many arguments as fn takes.
func arityOK(fn *types.Func, call *ast.CallExpr) bool {
	sig := fn.Signature()
	n := sig.Params().Len()
	if sig.Variadic() {
		return len(call.Args) >= n-1
	}
	return len(call.Args) == n
}

// scriptDef records a script constructor: a ScriptDef Op, and the Script
// later runs resolve to.
func (r *resolver) scriptDef(info *pkgInfo, s spec, call *ast.CallExpr, a []ast.Expr, stack []ast.Node) {
	op := r.newOp(ScriptDef, info, call, stack)
	sc := &Script{Def: call, Pos: call.Pos(), numKeys: -1, evalCmd: "EVALSHA"}
	if s.noSha {
		sc.evalCmd = "EVAL"
	}
	if s.ro {
		sc.evalCmd += "_RO"
	}
	if s.arg > 0 && s.arg-1 < len(a) {
		if n, ok := r.intVal(a[s.arg-1]); ok {
			sc.numKeys = int(n)
		}
	}
	if s.arg < len(a) {
		op.text = a[s.arg]
		if text, ok := r.str(a[s.arg]); ok {
			sc.Text, sc.Source = text, r.embedSource(a[s.arg])
			op.Script = sc
		}
	}
	r.scriptByCall[call] = sc
}

// scriptOf finds the Script a script object expression holds: the
// constructor called inline or assigned once to the variable.
func (r *resolver) scriptOf(e ast.Expr) *Script {
	for range 8 {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
			continue
		case *ast.UnaryExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			return r.scriptByCall[x]
		case *ast.Ident:
			f, ok := r.follow(x)
			if !ok || f == x {
				return nil
			}
			e = f
			continue
		case *ast.SelectorExpr:
			// A script kept in a struct field that one constructor sets.
			f := r.fieldValue(x)
			if f == nil {
				return nil
			}
			e = f
			continue
		}
		return nil
	}
	return nil
}

// fieldValue returns the one value a field of this package is ever given
// (one composite literal or assignment sets it; its address is never
// taken), or nil.
func (r *resolver) fieldValue(sel *ast.SelectorExpr) ast.Expr {
	v, ok := r.x.ObjOf(sel).(*types.Var)
	if !ok || !v.IsField() || v.Pkg() != r.pass.Pkg || r.x.AddrTaken(v) {
		return nil
	}
	ws := append(append([]syntax.Write(nil), r.x.FieldInits(v)...), r.x.Writes(v)...)
	if len(ws) != 1 || ws[0].Value() == nil {
		return nil
	}
	return ws[0].Value()
}

// shaScript finds the Script whose SHA1 an EVALSHA sends: the reply of a
// ScriptLoad (cmd.Result() or cmd.Val()) kept in a local, a package
// variable or a struct field of this package (set in a constructor or
// where it is loaded). Every value the variable is given must be a load of
// the same text, or the empty string (the "not loaded yet" mark), or the
// SHA1 of a visible text computed in Go (hashedScript); a SHA from anywhere
// else (a constant, a parameter, a second script) is nil.
func (r *resolver) shaScript(e ast.Expr, run *Op) *Script {
	vals, ok := r.shaValues(e)
	var out *Script
	for _, v := range vals {
		if s, isStr := r.str(v); isStr && s == "" {
			continue
		}
		sc := r.scriptOf(replyOf(v))
		if sc == nil {
			sc = r.hashedScript(v, run)
		}
		if sc == nil || (out != nil && sc.Text != out.Text) {
			return nil
		}
		out = sc
	}
	if !ok {
		return nil
	}
	return out
}

// replyOf is cmd in cmd.Result() or cmd.Val() (the reply of a go-redis
// command), or nil.
func replyOf(e ast.Expr) ast.Expr {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Result" && sel.Sel.Name != "Val") {
		return nil
	}
	return sel.X
}

// shaValues lists the values a SHA expression may hold: the expression
// itself, or every value a variable or field of this package is given
// (x, err := cmd.Result() counts as cmd.Result()). ok is false when a
// write cannot be read (x += e, a range, its address taken).
func (r *resolver) shaValues(e ast.Expr) ([]ast.Expr, bool) {
	e = ast.Unparen(e)
	var v *types.Var
	switch x := e.(type) {
	case *ast.Ident:
		v, _ = r.x.ObjOf(x).(*types.Var)
	case *ast.SelectorExpr:
		v, _ = r.x.ObjOf(x).(*types.Var)
		if v != nil && !v.IsField() {
			v = nil
		}
	default:
		return []ast.Expr{e}, true
	}
	if v == nil || v.Pkg() != r.pass.Pkg || r.x.AddrTaken(v) {
		return nil, false
	}
	var out []ast.Expr
	for _, w := range append(append([]syntax.Write(nil), r.x.FieldInits(v)...), r.x.Writes(v)...) {
		switch {
		case w.Kind == syntax.Zero && w.Embed == "":
		case w.Value() != nil:
			out = append(out, w.Value())
		case (w.Kind == syntax.Define || w.Kind == syntax.Assign) && w.Idx == 0:
			out = append(out, w.Rhs)
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// resolveScripts attaches script runs to their definitions.
// classifyScripts classifies every visible script once (several ops may
// share one), so rules never run the Lua classifier again.
func (r *resolver) classifyScripts() {
	for _, op := range r.ops {
		if op.Script != nil {
			r.classify(op.Script)
		}
	}
}

// classify works out what a script does, once (wrapper summaries need it
// before the end of the walk).
func (r *resolver) classify(sc *Script) {
	if sc.Foreign || r.classified[sc] {
		return
	}
	if r.classified == nil {
		r.classified = map[*Script]bool{}
	}
	r.classified[sc] = true
	sc.Detail = lua.Analyze(sc.Text)
	sc.Steps = sc.Detail.Steps
}

// pairedSteps decides the steps a script's text leaves to its runs
// (lua.Detail.Paired: GET KEYS[1] == ARGV[1] then PEXPIRE KEYS[2]): when
// every run of the script in the package passes the same key for both
// KEYS, by the same variable or field path, the script is that
// compare-and-delete or compare-and-extend. A run that passes two
// different keys, or keys it cannot show, leaves the script as its text
// reads.
func (r *resolver) pairedSteps() {
	runs := map[*Script][]*Op{}
	for _, op := range r.ops {
		if sc := op.Script; sc != nil && len(sc.Detail.Paired) > 0 && op.Kind == Command && !sc.Foreign {
			runs[sc] = append(runs[sc], op)
		}
	}
	for sc, ops := range runs {
		for _, p := range sc.Detail.Paired {
			same := true
			for _, op := range ops {
				if !op.Complete || max(p.Checked, p.Key) > len(op.Keys) || !samePath(r.info, op.Keys[p.Checked-1], op.Keys[p.Key-1]) {
					same = false
					break
				}
			}
			if !same {
				continue
			}
			d := &sc.Detail
			if d.Offset < 0 || p.Offset < d.Offset {
				d.Offset, d.Key = p.Offset, p.Checked
			}
			d.Steps |= p.Step
			d.Deletes = slices.DeleteFunc(d.Deletes, func(n int) bool { return n == p.Key && p.Step == lua.Release })
			d.Expires = slices.DeleteFunc(d.Expires, func(n int) bool { return n == p.Key && p.Step == lua.Extend })
			sc.Steps = d.Steps
		}
	}
}

// samePath reports whether two expressions name the same variable or
// field path (lock.ResourceName twice): identifiers and selectors only,
// each naming the same object.
func samePath(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		return ok && info.Uses[x] != nil && info.Uses[x] == info.Uses[y]
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && info.Uses[x.Sel] != nil && info.Uses[x.Sel] == info.Uses[y.Sel] && samePath(info, x.X, y.X)
	}
	return false
}

// scriptValues sets the Value of script runs that acquire (or set a key
// guarded by EXISTS, which the keys layer may find to be an acquire): the
// ARGV the script writes as the lock's value (lua.Detail.Token), when the
// run's ARGV are visible.
func (r *resolver) scriptValues() {
	for _, op := range r.ops {
		sc := op.Script
		if sc == nil || op.Value != nil || op.Kind != Command || sc.Steps&lua.Acquire == 0 && sc.Detail.Guarded == 0 {
			continue
		}
		if n := sc.Detail.Token; n > 0 && n <= len(op.argv) {
			op.Value = op.argv[n-1]
		}
	}
}

func (r *resolver) resolveScripts() {
	for i := range r.runs {
		run := &r.runs[i]
		sc := r.runScript(run)
		op := run.op
		if sc != nil {
			if sc.Text != "" {
				op.Script = sc
			}
			if op.Name == "" {
				op.Name = sc.evalCmd
			}
		}
		if op.Name == "" {
			op.Name = "EVALSHA"
		}
		if !run.split {
			continue
		}
		// redigo (*Script).Do(c, keysAndArgs...), radix v3 EvalScript.Cmd:
		// the first numKeys arguments are keys, the rest ARGV. A spread
		// slice built in the function is read to its elements.
		n := -1
		if sc != nil {
			n = sc.numKeys
		}
		if n < 0 {
			op.Complete = false
			continue
		}
		rest, spread := run.rest, run.spread
		if spread && len(rest) > 0 {
			if es, ok := r.collectedElems(rest[len(rest)-1]); ok {
				rest, spread = append(rest[:len(rest)-1:len(rest)-1], es...), false
			}
		}
		for i := 0; i < n; i++ {
			if i < len(rest) && !(spread && i == len(rest)-1) {
				op.Keys = append(op.Keys, rest[i])
			} else {
				op.Complete = false
			}
		}
		if !spread && n <= len(rest) {
			op.argv = rest[n:]
		}
	}
}
