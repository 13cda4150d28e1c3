package resolve

// Wrappers: the package's own functions that send a command, run or build
// a script, or call a lock library for their callers. Each is summarised
// (Summary) once its Ops are known — which needs the wrappers it calls
// summarised first, so summaries are computed on demand, callees first —
// and every call of a wrapper, in this package or (through the exported
// fact) in a package that imports it, becomes the Ops the summary
// describes, with the caller's arguments in place of the parameters.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// maxWrapperOps bounds the Ops a wrapper may send: a function that sends
// more (a GET then a DEL, a SETNX then an EXPIRE) is a routine of its own,
// judged where it is; passing its steps to every caller at one position
// would merge steps the rules must see apart.
const maxWrapperOps = 1

var (
	wrappedMu      sync.Mutex
	wrappedClients = map[*Client]*Client{} // client -> its wrapper copy
	wrappedFrom    = map[*Client]*Client{} // wrapper copy -> client
)

// localCall is a call of a function or interface method of the package,
// in the function declaration fd (nil at package level). Its stack is
// built only for the calls that turn out to be wrapper calls.
type localCall struct {
	fn   *types.Func
	call *ast.CallExpr
	fd   *ast.FuncDecl
}

// wrapperState is the resolver's state for wrappers.
type wrapperState struct {
	local    []localCall
	callsIn  map[*ast.FuncDecl][]int // indexes into local, by enclosing declaration
	done     map[*ast.CallExpr]bool  // local calls already resolved
	byFunc   map[*ast.FuncDecl][]*Op
	sums     map[*types.Func]*Summary
	state    map[*types.Func]uint8 // 1: being summarised, 2: done
	inner    map[*Summary][]*Op    // a local summary's Ops, for expressions the wrapper fixes
	imported map[*types.Func]*Summary
	methods  map[string]bool          // names of the methods that send something or call the package's functions
	modFwd   map[*types.Func]*Summary // interface methods of other packages, by their implementations in the module (moduleForwarder)
	here     map[*types.Func]bool     // interface methods of other packages that types of this package implement (implementedHere)
}

// implementedHere reports an interface method of another package whose
// interface some named type of this package implements: its calls here
// are judged by those implementations (forwarder), not by the module's.
func (r *resolver) implementedHere(m *types.Func) bool {
	if !isInterfaceMethod(m) || m.Pkg() == r.pass.Pkg {
		return false
	}
	if v, ok := r.w.here[m]; ok {
		return v
	}
	if r.w.here == nil {
		r.w.here = map[*types.Func]bool{}
	}
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	v := ok && len(implementers(r.pass.Pkg.Scope(), iface)) > 0
	r.w.here[m] = v
	return v
}

// noteLocal records a call of a function of the package (or of an
// interface method it declares): a wrapper call once the callee is
// summarised.
func (r *resolver) noteLocal(fn *types.Func, call *ast.CallExpr, stack []ast.Node) {
	if !isInterfaceMethod(fn) && r.x.Decl(fn) == nil {
		return
	}
	r.w.local = append(r.w.local, localCall{fn: fn, call: call, fd: funcDeclOf(stack)})
}

// stackOf rebuilds the path from the file down to a call (the call last).
func (r *resolver) stackOf(call *ast.CallExpr) []ast.Node {
	for _, f := range r.pass.Files {
		if call.Pos() < f.FileStart || call.Pos() > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
		for len(path) > 0 && path[0] != ast.Node(call) {
			path = path[1:] // never: the interval is the call's
		}
		stack := make([]ast.Node, len(path))
		for i, n := range path {
			stack[len(path)-1-i] = n
		}
		return stack
	}
	return []ast.Node{call}
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// importedSummary returns the Summary fact of a function of another
// package, if it has one.
func (r *resolver) importedSummary(fn *types.Func) *Summary {
	if r.pass.ImportObjectFact == nil {
		return nil
	}
	if s, ok := r.w.imported[fn]; ok {
		return s
	}
	s := new(Summary)
	if !r.pass.ImportObjectFact(fn, s) {
		s = nil
	}
	if r.w.imported == nil {
		r.w.imported = map[*types.Func]*Summary{}
	}
	r.w.imported[fn] = s
	return s
}

// wrappers resolves the package's local wrapper calls and summarises its
// wrappers (exporting their facts). It runs after the walk: r.ops holds
// every Op of a known client or an imported wrapper.
func (r *resolver) wrappers() {
	w := &r.w
	w.callsIn = map[*ast.FuncDecl][]int{}
	w.done = map[*ast.CallExpr]bool{}
	w.byFunc = map[*ast.FuncDecl][]*Op{}
	w.sums = map[*types.Func]*Summary{}
	w.state = map[*types.Func]uint8{}
	w.inner = map[*Summary][]*Op{}
	w.methods = map[string]bool{}
	for i, lc := range w.local {
		w.callsIn[lc.fd] = append(w.callsIn[lc.fd], i)
		if lc.fd != nil && lc.fd.Recv != nil {
			w.methods[lc.fd.Name.Name] = true
		}
	}
	for _, op := range r.ops {
		w.byFunc[op.Func] = append(w.byFunc[op.Func], op)
		if op.Func != nil && op.Func.Recv != nil {
			w.methods[op.Func.Name.Name] = true
		}
	}
	// Every local call, in source order; summaries are computed as the
	// callees are met.
	for i := range w.local {
		r.resolveLocal(i)
	}
	// Summarise every declared function that sends something, for the
	// packages that import this one, and every interface method.
	var fns []*types.Func
	for fd := range w.byFunc {
		if fd == nil {
			continue
		}
		if fn, ok := r.info.Defs[fd.Name].(*types.Func); ok {
			fns = append(fns, fn)
		}
	}
	fns = append(fns, interfaceMethods(r.pass.Pkg)...)
	fns = append(fns, r.scriptConstructors()...)
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		s := r.summaryOf(fn)
		if s == nil {
			continue
		}
		if r.wrappersOut == nil {
			r.wrappersOut = map[*types.Func]*Summary{}
		}
		r.wrappersOut[fn] = s
		if r.pass.ExportObjectFact != nil {
			r.pass.ExportObjectFact(fn, s)
		}
	}
}

// funcDeclOf is the outermost function declaration on a stack.
func funcDeclOf(stack []ast.Node) *ast.FuncDecl {
	for _, n := range stack {
		if fd, ok := n.(*ast.FuncDecl); ok {
			return fd
		}
	}
	return nil
}

// resolveLocal turns local call i into the Ops of its callee's summary
// (once).
func (r *resolver) resolveLocal(i int) {
	lc := r.w.local[i]
	if r.w.done[lc.call] {
		return
	}
	r.w.done[lc.call] = true
	if s := r.summaryOf(lc.fn); s != nil {
		r.viaCall(lc.fn, s, r.w.inner[s], lc.call, r.stackOf(lc.call))
	}
}

// summaryOf returns the summary of a function or interface method of the
// package (nil when it is no wrapper), computing it on first use: the
// local calls in its body are resolved first. A function that calls
// itself, directly or not, is no wrapper.
func (r *resolver) summaryOf(fn *types.Func) *Summary {
	switch r.w.state[fn] {
	case 1:
		return nil
	case 2:
		return r.w.sums[fn]
	}
	r.w.state[fn] = 1
	var s *Summary
	if isInterfaceMethod(fn) {
		s = r.forwarder(fn)
	} else if fd := r.x.Decl(fn); fd != nil {
		for _, i := range r.w.callsIn[fd] {
			r.resolveLocal(i)
		}
		s = r.summarize(fn, fd, r.w.byFunc[fd])
	}
	r.w.sums[fn], r.w.state[fn] = s, 2
	return s
}

// addOp records a wrapper Op created after the walk.
func (r *resolver) addOp(op *Op) {
	if r.w.byFunc != nil {
		r.w.byFunc[op.Func] = append(r.w.byFunc[op.Func], op)
	}
}

// summarize builds a function's summary from the Ops in its body: at
// most maxWrapperOps of them, none in a transaction or pipeline, and at
// least one that takes something from a parameter or is a lock step.
// Script definitions and inline EVALs whose text the function fixes stay
// where they are (LA101 reports them there) and are not passed on.
func (r *resolver) summarize(fn *types.Func, fd *ast.FuncDecl, ops []*Op) *Summary {
	if len(ops) == 2 && fd.Body != nil {
		if s := r.checkedDelete(fn, fd, ops); s != nil {
			return s
		}
		if s := r.expiredAcquire(fn, fd, ops); s != nil {
			return s
		}
	}
	if len(ops) == 0 && fd.Body != nil {
		return r.scriptConstructor(fn, fd)
	}
	if len(ops) == 0 || len(ops) > maxWrapperOps || fd.Body == nil {
		return nil
	}
	params := map[types.Object]int{}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	pidx := func(e ast.Expr) int { return r.paramIndex(params, e) }
	var out []OpSummary
	var kept []*Op
	relevant := false
	for _, op := range ops {
		switch op.Name {
		case "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH":
			return nil
		}
		if op.Tx != nil || (op.conn != nil && r.txByObj[op.conn] != nil) {
			return nil
		}
		name := op.Name
		if name == "" && op.Kind == Command {
			name = "EVALSHA" // a script run, named once its script is attached
			if d := r.pendingScript(op); d != nil && d.evalCmd != "" {
				name = d.evalCmd
			}
		}
		os := OpSummary{
			Kind: op.Kind, Client: clientKeys[unwrap(op.Client)], Name: name, Method: op.Method, Step: op.Step,
			NX: op.NX, XX: op.XX, GET: op.GET, Cond: op.Cond, TTL: op.TTL, Complete: op.Complete,
			KeysFrom: -1, Value: pidx(op.Value), Match: pidx(op.Match), TTLArg: pidx(op.TTLExpr),
			ArgvFrom: -1, TextArg: -1, ObjectArg: -1, NumKeys: -1, NumKeysArg: -1, KeysArgvFrom: -1,
			At: r.x.At(op.Call.Pos()),
		}
		if op.Via != nil {
			os.At, os.ExpireAt = op.Via.At, op.Via.ExpireAt
		}
		if os.Client == "" {
			return nil
		}
		os.DurationTTL = op.durTTL && os.TTLArg >= 0
		if k := pidx(op.keysArg); op.keysArg != nil && k >= 0 {
			os.KeysFrom, os.Complete = k, os.Complete || len(op.Keys) == 0
		} else {
			for _, k := range op.Keys {
				i := pidx(k)
				if i < 0 {
					i = r.decoratedParam(params, k)
				}
				os.Keys = append(os.Keys, i)
			}
		}
		if n, l := pidx(op.numKeys), pidx(op.keysArgv); op.keysArgv != nil && n >= 0 && l >= 0 {
			os.NumKeysArg, os.KeysArgvFrom = n, l
		}
		if op.argvFrom != nil {
			os.ArgvFrom = pidx(op.argvFrom)
		} else {
			for _, a := range op.argv {
				os.Argv = append(os.Argv, pidx(a))
			}
		}
		sc, run := op.Script, r.runOf(op)
		var recv ast.Expr
		if run != nil {
			recv = run.recv
		}
		if sc == nil && recv != nil {
			if d := r.runScript(run); d != nil && d.Text != "" {
				sc = d
			}
		}
		if sc != nil {
			r.classify(sc)
		}
		switch {
		case op.Kind == ScriptDef:
			os.TextArg = pidx(op.text)
			if os.TextArg < 0 {
				continue // a script the wrapper defines: reported where it is
			}
			if d := r.scriptByCall[op.Call]; d != nil {
				os.EvalCmd, os.NumKeys = d.evalCmd, d.numKeys
			}
		case sc != nil:
			os.Scripted, os.Script, os.Where = true, sc.Detail, r.scriptWhere(sc)
		case recv != nil:
			os.ObjectArg = pidx(recv)
		case op.text != nil:
			os.TextArg = pidx(op.text)
		}
		if op.Kind == ScriptDef {
			// a constructor wrapper returns the script it builds
			if !r.returned(fd, op.Call) {
				continue
			}
		}
		if os.Value >= 0 || os.Match >= 0 || os.TTLArg >= 0 || os.KeysFrom >= 0 || os.ArgvFrom >= 0 ||
			os.TextArg >= 0 || os.ObjectArg >= 0 || os.KeysArgvFrom >= 0 || anyParam(os.Keys) || anyParam(os.Argv) ||
			op.Steps() != 0 || op.Kind == Library || os.Script.Steps.IsLock() {
			relevant = true
		}
		out = append(out, os)
		kept = append(kept, op)
	}
	if !relevant || len(out) == 0 {
		return nil
	}
	results := r.carries(fd, sig, kept[len(kept)-1])
	dropped := r.errorOnly(fd, kept[len(kept)-1])
	for i := range out {
		out[i].Results, out[i].Dropped = results, dropped
	}
	s := &Summary{Ops: out}
	r.w.inner[s] = kept
	for i, op := range kept {
		op.InWrapper = &InWrapper{Func: fn, Summary: s, Passed: out[i].passed()}
	}
	return s
}

// scriptConstructor summarises a project's copy of a client's script
// constructor (redigo's and redsync's NewScript(keyCount int, src string),
// go-redis's NewScript(src string)): a function named for a script whose
// parameters are those and which returns a struct literal of its package
// keeping the source in a field (beside its SHA1, say). Its callers define
// the script they pass, as with the client's own constructor; its runs go
// through the project's own types, which this does not read. nil for any
// other function.
func (r *resolver) scriptConstructor(fn *types.Func, fd *ast.FuncDecl) *Summary {
	sig := fn.Signature()
	if sig.Recv() != nil || sig.Variadic() || !strings.Contains(strings.ToLower(fn.Name()), "script") || sig.Results().Len() != 1 {
		return nil
	}
	text, count := -1, -1
	switch ps := sig.Params(); {
	case ps.Len() == 1 && syntax.IsString(ps.At(0).Type()):
		text = 0
	case ps.Len() == 2 && syntax.IsString(ps.At(1).Type()) && syntax.IsInt(ps.At(0).Type()):
		text, count = 1, 0
	default:
		return nil
	}
	ptr, ok := sig.Results().At(0).Type().(*types.Pointer)
	if !ok {
		return nil
	}
	named := syntax.NamedOf(ptr.Elem())
	if named == nil || named.Obj().Pkg() != r.pass.Pkg {
		return nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil
	}
	src := sig.Params().At(text)
	kept := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return !kept
		}
		u, ok := ast.Unparen(ret.Results[0]).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			return false
		}
		lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
		if !ok {
			return false
		}
		for _, el := range lit.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if id, ok := ast.Unparen(el).(*ast.Ident); ok && r.info.Uses[id] == src {
				kept = true
			}
		}
		return false
	})
	if !kept {
		return nil
	}
	return &Summary{Ops: []OpSummary{{
		Kind: ScriptDef, Client: portPath, Complete: true,
		KeysFrom: -1, Value: -1, Match: -1, TTLArg: -1, ArgvFrom: -1, ObjectArg: -1,
		TextArg: text, NumKeys: -1, NumKeysArg: count, KeysArgvFrom: -1, EvalCmd: "EVALSHA",
		At: r.x.At(fd.Pos()),
	}}}
}

// scriptConstructors lists the package's functions named for a script
// that send nothing (scriptConstructor tells which are constructors).
func (r *resolver) scriptConstructors() []*types.Func {
	var out []*types.Func
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || len(r.w.byFunc[fd]) > 0 || !strings.Contains(strings.ToLower(fd.Name.Name), "script") {
				continue
			}
			if fn, ok := r.info.Defs[fd.Name].(*types.Func); ok {
				out = append(out, fn)
			}
		}
	}
	return out
}

// checkedDelete summarises a GET-compare-then-DEL helper (nfgo's
// DeleteByKeyValue(key, val)): a GET of a key parameter, then, inside an
// if whose condition compares the GET's reply with another parameter
// (== either way round), a DEL of the same key parameter. Its callers see
// one DEL of their key, Checked, with Match the compared value: whether
// that is a lock's release racing its owner check is decided at each call
// (LA103), by the key and value it passes. nil for any other shape.
func (r *resolver) checkedDelete(fn *types.Func, fd *ast.FuncDecl, ops []*Op) *Summary {
	get, del := ops[0], ops[1]
	if get.Name != "GET" || !del.IsPlainDel() || len(get.Keys) != 1 || len(del.Keys) != 1 || get.Tx != nil || del.Tx != nil {
		return nil
	}
	params, k := r.sharedKeyParam(fn, get, del)
	if k < 0 {
		return nil
	}
	match := -1
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || match >= 0 || del.Pos < ifs.Body.Pos() || del.Pos >= ifs.Body.End() {
			return match < 0
		}
		if be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr); ok && be.Op == token.EQL {
			for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
				if j := r.paramIndex(params, pair[0]); j >= 0 && j != k && r.fromCall(pair[1], get.Call) {
					match = j
				}
			}
		}
		return match < 0
	})
	if match < 0 {
		return nil
	}
	s := r.summarize(fn, fd, []*Op{del})
	if s == nil {
		return nil
	}
	s.Ops[0].Match, s.Ops[0].Checked = match, true
	del.InWrapper.Passed = s.Ops[0].passed()
	return s
}

// expiredAcquire summarises a set-if-absent-then-expire helper (a
// project's SetNX(ctx, key, value, expireSeconds) that sends SETNX, then
// EXPIRE in a second round trip): a TTL-less SETNX or SET NX of a key
// parameter, then an EXPIRE-family command of the same parameter. Its
// callers see one acquire of their key, with ExpireAt where the EXPIRE is
// sent: whether that is a lock acquired without an atomic TTL is decided
// at each call (LA106), by the key and names it has. nil for any other
// shape.
func (r *resolver) expiredAcquire(fn *types.Func, fd *ast.FuncDecl, ops []*Op) *Summary {
	acq, exp := ops[0], ops[1]
	if !acq.IsAcquire() || (acq.Name != "SETNX" && acq.TTL != NoTTL) || exp.Steps()&StepExpire == 0 ||
		len(acq.Keys) != 1 || len(exp.Keys) != 1 || acq.Tx != nil || exp.Tx != nil || exp.Pos <= acq.Pos {
		return nil
	}
	if _, k := r.sharedKeyParam(fn, acq, exp); k < 0 {
		return nil
	}
	s := r.summarize(fn, fd, []*Op{acq})
	if s == nil {
		return nil
	}
	s.Ops[0].ExpireAt = r.x.At(exp.Call.Pos())
	return s
}

// sharedKeyParam returns a wrapper's parameters (by object, to their
// index) and the index of the parameter that is the first key of both a
// and b, or -1.
func (r *resolver) sharedKeyParam(fn *types.Func, a, b *Op) (map[types.Object]int, int) {
	params := map[types.Object]int{}
	for i := range fn.Signature().Params().Len() {
		params[fn.Signature().Params().At(i)] = i
	}
	k := r.paramIndex(params, a.Keys[0])
	if k < 0 || r.paramIndex(params, b.Keys[0]) != k {
		return params, -1
	}
	return params, k
}

// fromCall reports whether e is a local variable every write of which is
// (a part of) an expression holding call: v, err := redis.String(conn.Do("GET", k)).
func (r *resolver) fromCall(e ast.Expr, call *ast.CallExpr) bool {
	v, ok := r.x.ObjOf(ast.Unparen(e)).(*types.Var)
	if !ok || v.IsField() {
		return false
	}
	ws := r.writesOf(v)
	for _, w := range ws {
		if w.Rhs == nil || call.Pos() < w.Rhs.Pos() || call.End() > w.Rhs.End() {
			return false
		}
	}
	return len(ws) > 0
}

// passed is the set of parts of the Op the wrapper's callers pass.
func (o OpSummary) passed() Passed {
	var p Passed
	if o.Value >= 0 || o.Match >= 0 {
		p |= PassedValue
	}
	if o.TTLArg >= 0 {
		p |= PassedTTL
	}
	if o.KeysFrom >= 0 || o.KeysArgvFrom >= 0 || anyParam(o.Keys) {
		p |= PassedKey
	}
	if o.TextArg >= 0 || o.ObjectArg >= 0 {
		p |= PassedScript
	}
	if o.ArgvFrom >= 0 || o.KeysArgvFrom >= 0 || anyParam(o.Argv) {
		p |= PassedArgv
	}
	return p
}

func anyParam(is []int) bool {
	for _, i := range is {
		if i >= 0 {
			return true
		}
	}
	return false
}

// unwrap returns the client a wrapper Client stands for.
func unwrap(c *Client) *Client {
	if c.API != APIWrapper {
		return c
	}
	wrappedMu.Lock()
	defer wrappedMu.Unlock()
	if orig := wrappedFrom[c]; orig != nil {
		return orig
	}
	return c
}

// paramIndex returns the index of the parameter e is (following locals
// assigned once), or -1.
func (r *resolver) paramIndex(params map[types.Object]int, e ast.Expr) int {
	for range 8 {
		if e == nil {
			return -1
		}
		e = ast.Unparen(e)
		id, ok := e.(*ast.Ident)
		if !ok {
			return -1
		}
		obj := r.info.Uses[id]
		if i, ok := params[obj]; ok {
			return i
		}
		next, ok := r.x.Follow(id)
		if !ok || next == e {
			return -1
		}
		e = next
	}
	return -1
}

// decoratedParam returns the index of the parameter a key is built from
// when the rest of it is constant: a helper of the package called with the
// parameter and constants (serialKey(key)), a concatenation or a
// fmt.Sprintf of constants and the parameter ("app:"+key). Such a wrapper's
// key is its caller's, decorated: the caller's argument stands for it, so
// a lock key passed through a generic Del is judged at the call. -1 when it
// is not one.
func (r *resolver) decoratedParam(params map[types.Object]int, e ast.Expr) int {
	if f, ok := r.x.Follow(e); ok {
		e = f
	}
	e = ast.Unparen(e)
	var parts []ast.Expr
	switch x := e.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(r.info, x).(*types.Func)
		if fn == nil || x.Ellipsis.IsValid() {
			return -1
		}
		switch {
		case fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf":
		case fn.Pkg() == r.pass.Pkg && r.x.Decl(fn) != nil && fn.Signature().Recv() == nil:
		default:
			return -1
		}
		parts = x.Args
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return -1
		}
		var flat func(ast.Expr)
		flat = func(e ast.Expr) {
			if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
				flat(b.X)
				flat(b.Y)
				return
			}
			parts = append(parts, e)
		}
		flat(x)
	default:
		return -1
	}
	found := -1
	for _, p := range parts {
		if tv, ok := r.info.Types[p]; ok && tv.Value != nil {
			continue
		}
		i := r.paramIndex(params, p)
		if i < 0 || found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// runOf is the script run of op whose script is not attached yet (runs
// are attached after the walk), or nil.
func (r *resolver) runOf(op *Op) *scriptRun {
	for i := range r.runs {
		if r.runs[i].op == op {
			return &r.runs[i]
		}
	}
	return nil
}

// runScript is the script a run sends: the script object's, or for an
// EVALSHA the script whose SHA it is given (shaScript).
func (r *resolver) runScript(run *scriptRun) *Script {
	if run.sha {
		return r.shaScript(run.recv, run.op)
	}
	return r.scriptOf(run.recv)
}

// scriptWhere names where a script is for a message: its file and line,
// or the embedded file and the line of its first lock step.
func (r *resolver) scriptWhere(sc *Script) string {
	if sc.Source != "" {
		if sc.Foreign {
			return sc.Source
		}
		return fmt.Sprintf("%s:%d", sc.Source, max(1, sc.Detail.Line(sc.Text)))
	}
	if !sc.Pos.IsValid() {
		return ""
	}
	return r.x.At(sc.Pos)
}

// returned reports whether a function returns the value of call.
func (r *resolver) returned(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if f, _ := r.x.Follow(e); ast.Unparen(f) == call || ast.Unparen(e) == call {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// errorOnly reports a wrapper that reads nothing of its Op's reply but the
// error (`return cmd.Err()`, `_, err := cmd.Result()`, `res := cmd;
// return res.Err()`): the reply's value ends there. A reply (or a
// variable holding it) returned, passed, compared or stored is read; an
// error variable is only the error.
func (r *resolver) errorOnly(fd *ast.FuncDecl, op *Op) bool {
	if op.Call == nil || op.Kind == ScriptDef || op.Client != nil && op.Client.Replies == InReceiver {
		return false // a radix action's reply goes into its receiver
	}
	// held are the variables the reply (or a method's result on it) is
	// assigned to; only their error-typed ones are harmless.
	var held []*ast.Ident
	onlyErr := func(n ast.Expr) bool {
		for {
			sel, ok := r.x.Parent(n).(*ast.SelectorExpr)
			if !ok || sel.X != n {
				break
			}
			call, ok := r.x.Parent(sel).(*ast.CallExpr)
			if !ok || call.Fun != sel {
				return false // a method value or a field of the reply
			}
			if sel.Sel.Name == "Err" {
				return true
			}
			n = call // cmd.Result(), cmd.Int(): where that goes decides
		}
		switch p := r.x.Parent(n).(type) {
		case *ast.ExprStmt:
			return true
		case *ast.AssignStmt:
			if !slices.Contains(p.Rhs, n) || len(p.Rhs) != 1 && len(p.Rhs) != len(p.Lhs) {
				return false
			}
			for i, l := range p.Lhs {
				if len(p.Rhs) == 1 || p.Rhs[i] == n {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok {
						return false // stored in a field or an element
					}
					held = append(held, id)
				}
			}
			return true
		}
		return false
	}
	if !onlyErr(op.Call) {
		return false
	}
	for len(held) > 0 {
		id := held[0]
		held = held[1:]
		v, _ := r.x.ObjOf(id).(*types.Var)
		if id.Name == "_" || v != nil && syntax.IsError(v.Type()) {
			continue
		}
		if v == nil || syntax.IsPkgLevel(v) || r.x.IsResult(v) {
			return false
		}
		for _, u := range r.x.Uses(v) {
			if u.Pos() < fd.Pos() || u.Pos() >= fd.End() || !onlyErr(u) {
				return false
			}
		}
	}
	return true
}

// carries says what each result of the function carries of the reply of
// its Op: a result computed from the call or from a variable assigned from
// it; an error of the function's own returned where a conditional on the
// reply decides (ErrNotLocked when the release found another owner) is the
// outcome, as an error (CarryLost). Whether the caller can examine the
// outcome at all is reply.Of's question.
func (r *resolver) carries(fd *ast.FuncDecl, sig *types.Signature, op *Op) []Carry {
	n := sig.Results().Len()
	if n == 0 {
		return nil
	}
	tainted := map[types.Object]bool{}
	hit := func(e ast.Node) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if n == op.Call {
					found = true
				}
			case *ast.Ident:
				if o := r.info.Uses[n]; o != nil && tainted[o] {
					found = true
				}
			}
			return !found
		})
		return found
	}
	// Variables assigned from the reply, to a fixed point.
	for changed, round := true, 0; changed && round < 6; round++ {
		changed = false
		ast.Inspect(fd.Body, func(nd ast.Node) bool {
			var lhs, rhs []ast.Expr
			switch s := nd.(type) {
			case *ast.AssignStmt:
				lhs, rhs = s.Lhs, s.Rhs
			case *ast.ValueSpec:
				for _, id := range s.Names {
					lhs = append(lhs, id)
				}
				rhs = s.Values
			default:
				return true
			}
			for i, l := range lhs {
				var from ast.Expr
				switch {
				case len(rhs) == len(lhs):
					from = rhs[i]
				case len(rhs) == 1:
					from = rhs[0]
				}
				if from == nil || !hit(from) {
					continue
				}
				if o := r.x.Target(l); o != nil && !tainted[o] {
					tainted[o], changed = true, true
				}
			}
			return true
		})
	}
	// A conditional on the reply decides what the function returns: an
	// error it returns of its own (ErrNotLocked) then tells the outcome.
	decides := false
	ast.Inspect(fd.Body, func(nd ast.Node) bool {
		switch s := nd.(type) {
		case *ast.IfStmt:
			decides = decides || hit(s.Cond) || (s.Init != nil && hit(s.Init))
		case *ast.SwitchStmt:
			decides = decides || (s.Tag != nil && hit(s.Tag)) || (s.Init != nil && hit(s.Init))
		}
		return !decides
	})
	out := make([]Carry, n)
	mark := func(i int, e ast.Expr) {
		c := CarryValue
		if syntax.IsError(sig.Results().At(i).Type()) {
			switch {
			case e == nil || hit(e):
				c = CarryError
			case decides && !syntax.IsNil(r.info, e):
				c = CarryLost
			default:
				return
			}
		} else if e != nil && !hit(e) {
			return
		}
		out[i] = max(out[i], c)
	}
	ast.Inspect(fd.Body, func(nd ast.Node) bool {
		switch s := nd.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case len(s.Results) == 0: // a bare return of named results
				for i := range n {
					if tainted[sig.Results().At(i)] {
						mark(i, nil)
					}
				}
			case len(s.Results) == 1 && n > 1: // return f(): a tuple
				if hit(s.Results[0]) {
					for i := range n {
						mark(i, nil)
					}
				}
			default:
				for i, e := range s.Results {
					if i < n {
						mark(i, e)
					}
				}
			}
		}
		return true
	})
	return out
}

// forwarder summarises an interface method of the package (or of another
// package, called here where it is implemented: implementedHere): the
// common summary of its implementations in the package, when every named
// type of the package that implements the interface and sends something
// has the method as a wrapper, all alike (the same commands with the same
// parameters; the client may differ, as v8 and v9 clients do). An
// implementation that sends nothing (an in-memory store, a no-op lock)
// does not count: the Redis-backed ones decide what a call means.
func (r *resolver) forwarder(m *types.Func) *Summary {
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok || !r.w.methods[m.Name()] {
		return nil // no method of that name can be a wrapper
	}
	var first *Summary
	scope := r.pass.Pkg.Scope()
	impls := 0
	for _, t := range implementers(scope, iface) {
		obj, _, _ := types.LookupFieldOrMethod(t, true, r.pass.Pkg, m.Name())
		impl, ok := obj.(*types.Func)
		if !ok || impl.Pkg() != r.pass.Pkg {
			return nil
		}
		s := r.summaryOf(impl)
		if s == nil && r.sendsNothing(impl) {
			continue // an in-memory or no-op implementation: the Redis-backed ones decide
		}
		if s == nil || (first != nil && !alike(first, s)) {
			return nil
		}
		if first == nil {
			first = s
		}
		impls++
	}
	if impls == 0 {
		return nil
	}
	return first
}

// moduleForwarder summarises an interface method of another package by its
// implementations in the packages of the module this package imports
// (directly or not): the common summary of those that are wrappers (their
// Summary facts), when they are alike; an implementation in a package that
// reaches no client (an in-memory store) does not count, any other one
// that is no wrapper makes the method unknown. The interface's own package
// cannot see implementations in the packages that import it.
func (r *resolver) moduleForwarder(m *types.Func) *Summary {
	if s, ok := r.w.modFwd[m]; ok {
		return s
	}
	if r.w.modFwd == nil {
		r.w.modFwd = map[*types.Func]*Summary{}
	}
	r.w.modFwd[m] = nil
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	// The module; in GOPATH mode (no module), the packages under the
	// same first path element.
	mod, _, _ := strings.Cut(r.pass.Pkg.Path(), "/")
	if r.pass.Module != nil && r.pass.Module.Path != "" {
		mod = r.pass.Module.Path
	}
	var first *Summary
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return true
		}
		seen[p] = true
		if p.Path() != mod && !strings.HasPrefix(p.Path(), mod+"/") {
			return true
		}
		reaches := r.pass.ImportPackageFact != nil && r.pass.ImportPackageFact(p, new(Reaches))
		scope := p.Scope()
		for _, t := range implementers(scope, iface) {
			obj, _, _ := types.LookupFieldOrMethod(t, true, p, m.Name())
			impl, ok := obj.(*types.Func)
			if !ok {
				return false
			}
			s := r.importedSummary(impl)
			if s == nil {
				if reaches {
					return false // Redis-backed but no wrapper: unknown
				}
				continue // sends nothing
			}
			if first != nil && !alike(first, s) {
				return false
			}
			if first == nil {
				first = s
			}
		}
		for _, imp := range p.Imports() {
			if !visit(imp) {
				return false
			}
		}
		return true
	}
	for _, imp := range r.pass.Pkg.Imports() {
		if !visit(imp) {
			return nil
		}
	}
	r.w.modFwd[m] = first
	return first
}

// sendsNothing reports whether a method of the package sends no command,
// runs no script and calls no lock library, directly or through a wrapper:
// an implementation of a client interface that is not Redis-backed (a
// LocalStore, a NoOpLock).
func (r *resolver) sendsNothing(fn *types.Func) bool {
	fd := r.x.Decl(fn)
	return fd != nil && len(r.w.byFunc[fd]) == 0
}

// alike reports whether two summaries send the same commands with the
// same parameters (the clients and places may differ).
func alike(a, b *Summary) bool {
	if len(a.Ops) != len(b.Ops) {
		return false
	}
	for i := range a.Ops {
		x, y := a.Ops[i], b.Ops[i]
		x.Client, y.Client, x.At, y.At, x.Where, y.Where = "", "", "", "", "", ""
		if x.String() != y.String() {
			return false
		}
	}
	return true
}

// interfaceMethods lists the explicit methods of a package's interface
// types (aliases left out).
func interfaceMethods(pkg *types.Package) []*types.Func {
	var out []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		iface, ok := named.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumExplicitMethods() {
			out = append(out, iface.ExplicitMethod(i))
		}
	}
	return out
}

// viaCall turns a call of a wrapper into the Ops its summary describes.
// inner are the wrapper's own Ops when it is in this package: an
// expression the wrapper fixes (a constant key) is then used as it is,
// when it names nothing local to the wrapper.
func (r *resolver) viaCall(fn *types.Func, sum *Summary, inner []*Op, call *ast.CallExpr, stack []ast.Node) {
	sig := fn.Signature()
	at := paramArgs(sig, call)
	for k, os := range sum.Ops {
		info := clientByKey[os.Client]
		if info == nil {
			continue
		}
		c := info.client
		if len(os.Client) > 4 && os.Client[len(os.Client)-4:] == "#lib" {
			c = info.lib
		}
		var in *Op
		if k < len(inner) {
			in = inner[k]
		}
		op := &Op{Kind: os.Kind, Client: wrapped(c), Call: call, Pos: call.Pos(), Complete: os.Complete}
		r.place(op, stack)
		op.Name, op.Method, op.Step = os.Name, os.Method, os.Step
		op.NX, op.XX, op.GET, op.Cond, op.TTL = os.NX, os.XX, os.GET, os.Cond, os.TTL
		op.Via = &Via{Func: fn, At: os.At, Results: os.Results, Dropped: os.Dropped, Checked: os.Checked, ExpireAt: os.ExpireAt}
		op.Args = args(sig, call)
		fixed := func(i int, e func(*Op) ast.Expr) ast.Expr {
			if i >= 0 {
				return at.one(i)
			}
			if in != nil && r.closed(e(in)) {
				return e(in)
			}
			return nil
		}
		op.Value = fixed(os.Value, func(o *Op) ast.Expr { return o.Value })
		op.Match = fixed(os.Match, func(o *Op) ast.Expr { return o.Match })
		op.TTLExpr = fixed(os.TTLArg, func(o *Op) ast.Expr { return o.TTLExpr })
		op.Via.Passed = os.passed()
		if os.DurationTTL {
			r.durationTTL(op, info, op.TTLExpr)
			if os.NX && goRedisDialectOf(info).legacySetNX && op.TTL == NoTTL {
				op.Name, op.NX = "SETNX", false
			}
		}
		switch {
		case os.KeysFrom >= 0:
			keys, ok := at.elems(r, os.KeysFrom, false)
			op.Keys, op.Complete = keys, op.Complete && ok
		default:
			for i, p := range os.Keys {
				e := fixed(p, func(o *Op) ast.Expr {
					if i < len(o.Keys) {
						return o.Keys[i]
					}
					return nil
				})
				if e == nil {
					op.Keys, op.Complete = nil, false
					break
				}
				op.Keys = append(op.Keys, e)
			}
		}
		if os.KeysArgvFrom >= 0 {
			r.splitKeysArgv(op, at, os)
		}
		switch {
		case os.ArgvFrom >= 0:
			op.argv, _ = at.elems(r, os.ArgvFrom, true)
		default:
			for i, p := range os.Argv {
				e := fixed(p, func(o *Op) ast.Expr {
					if i < len(o.argv) {
						return o.argv[i]
					}
					return nil
				})
				if e == nil {
					// ARGV are positional: the ones before an argument
					// the wrapper builds itself (strconv.Itoa(ttl)) are
					// still known (the acquire's token is ARGV[1]).
					break
				}
				op.argv = append(op.argv, e)
			}
		}
		switch {
		case os.TextArg >= 0:
			op.text = at.one(os.TextArg)
			if op.Kind == ScriptDef {
				sc := &Script{Def: call, Pos: call.Pos(), numKeys: os.NumKeys, evalCmd: os.EvalCmd}
				if n, ok := r.intVal(at.one(os.NumKeysArg)); ok && os.NumKeysArg >= 0 {
					sc.numKeys = int(n)
				}
				if sc.evalCmd == "" {
					sc.evalCmd = "EVALSHA"
				}
				if text, ok := r.str(op.text); ok {
					sc.Text, sc.Source = text, r.embedSource(op.text)
					op.Script = sc
				}
				r.scriptByCall[call] = sc
			} else {
				r.inlineScript(op, op.text)
			}
		case os.ObjectArg >= 0:
			r.runs = append(r.runs, scriptRun{op: op, recv: at.one(os.ObjectArg)})
		case os.Scripted:
			if sc := r.innerScript(in); sc != nil {
				cp := *sc
				cp.Inline = false
				op.Script = &cp
			} else {
				op.Script = &Script{Steps: os.Script.Steps, Detail: os.Script, Source: os.Where, Foreign: true, numKeys: -1}
			}
		}
		r.ops = append(r.ops, op)
		r.addOp(op)
	}
}

// splitKeysArgv gives a wrapper call its keys and ARGV when the wrapper
// sends EVAL with the caller's key count and one list of keys then ARGV
// (OpSummary.KeysArgvFrom): the count's constant value splits the list's
// visible elements. Unknown when either is not visible.
func (r *resolver) splitKeysArgv(op *Op, at callArgs, os OpSummary) {
	n, ok := r.numkeys(at.one(os.NumKeysArg))
	if !ok || n < 0 {
		return
	}
	elems, ok := at.elems(r, os.KeysArgvFrom, true)
	if !ok || int(n) > len(elems) {
		return
	}
	op.Keys, op.argv, op.Complete = elems[:n], elems[n:], true
}

// place fills an Op's Stack, Func, Lit and scope from a call's stack.
func (r *resolver) place(op *Op, stack []ast.Node) {
	op.Stack = append([]ast.Node(nil), stack...)
	for i := len(op.Stack) - 1; i >= 0; i-- {
		switch n := op.Stack[i].(type) {
		case *ast.FuncLit:
			if op.Lit == nil {
				op.Lit = n
			}
			if op.scope == nil {
				op.scope = n
			}
		case *ast.FuncDecl:
			op.Func = n
			if op.scope == nil {
				op.scope = n
			}
		}
	}
}

// closed reports whether e names nothing local to a function: constants,
// package-level variables and what is built from them only.
func (r *resolver) closed(e ast.Expr) bool {
	if e == nil {
		return false
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.Ident:
			if v, isVar := r.info.Uses[n].(*types.Var); isVar && !v.IsField() && !syntax.IsPkgLevel(v) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// callArgs maps a callee's parameters to a call's arguments.
type callArgs struct {
	args     []ast.Expr
	variadic int // index of the variadic parameter, -1
	spread   bool
}

func paramArgs(sig *types.Signature, call *ast.CallExpr) callArgs {
	c := callArgs{args: call.Args, variadic: -1, spread: call.Ellipsis.IsValid()}
	if sig.Variadic() {
		c.variadic = sig.Params().Len() - 1
	}
	return c
}

// one is the argument passed for parameter i: nil when the call passes
// none, or a variadic parameter gets anything but one plain argument.
func (c callArgs) one(i int) ast.Expr {
	if i < 0 || i >= len(c.args) {
		return nil
	}
	if i == c.variadic && (c.spread || len(c.args) != i+1) {
		return nil
	}
	return c.args[i]
}

// elems returns the elements parameter i passes as a list: a variadic
// parameter's arguments (a spread slice followed to its elements), or the
// elements of the slice passed for it. flatten expands a single slice
// literal passed to a variadic ...interface{} (go-redis flattens slices
// among a command's arguments). ok is false when they are not all
// visible.
func (c callArgs) elems(r *resolver, i int, flatten bool) ([]ast.Expr, bool) {
	if i < 0 || i > len(c.args) {
		return nil, false
	}
	if i == c.variadic {
		if c.spread {
			if i != len(c.args)-1 {
				return nil, false
			}
			return r.collectedElems(c.args[i])
		}
		rest := c.args[i:]
		if flatten && len(rest) == 1 {
			if _, isSlice := r.info.TypeOf(rest[0]).Underlying().(*types.Slice); isSlice {
				if es, ok := r.sliceElems(rest[0]); ok {
					return es, true
				}
			}
		}
		return rest, true
	}
	if i >= len(c.args) {
		return nil, false
	}
	return r.collectedElems(c.args[i])
}

// embedSource returns the file a //go:embed variable e names (relative to
// the package), or "".
func (r *resolver) embedSource(e ast.Expr) string {
	for range 8 {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.CallExpr:
			if tv, ok := r.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				e = x.Args[0]
				continue
			}
			if name := r.embedFSRead(x); name != "" {
				return name
			}
			return ""
		case *ast.Ident:
			obj := r.info.Uses[x]
			if obj == nil {
				return ""
			}
			w, ok := r.x.Single(obj)
			if !ok {
				if call := r.tupleCall(obj); call != nil {
					return r.embedFSRead(call)
				}
				return ""
			}
			if w.Embed != "" {
				return filepath.ToSlash(w.Embed)
			}
			if w.Value() != nil {
				e = w.Value()
				continue
			}
			return ""
		case *ast.SelectorExpr:
			if em := r.importedEmbed(x); em != nil {
				return em.Source
			}
			return ""
		}
		return ""
	}
	return ""
}

// pendingScript is the script definition a run not yet attached uses.
func (r *resolver) pendingScript(op *Op) *Script {
	if run := r.runOf(op); run != nil {
		return r.runScript(run)
	}
	return nil
}

// innerScript is the script a local wrapper's Op runs, attached or not.
func (r *resolver) innerScript(in *Op) *Script {
	if in == nil {
		return nil
	}
	if in.Script != nil {
		return in.Script
	}
	if run := r.runOf(in); run != nil {
		if sc := r.runScript(run); sc != nil && sc.Text != "" {
			r.classify(sc)
			return sc
		}
	}
	return nil
}

// implementers are the named types declared in scope that implement iface,
// each as T or, when only its pointer does, *T (aliases and interfaces left
// out): the implementations an interface call can reach there.
func implementers(scope *types.Scope, iface *types.Interface) []types.Type {
	var out []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		var t types.Type = tn.Type()
		if !types.Implements(t, iface) {
			if t = types.NewPointer(t); !types.Implements(t, iface) {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}
