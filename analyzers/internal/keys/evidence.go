package keys

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Lock evidence is decided here and nowhere else; the catalog states the
// rule once (rules/catalog.yaml, definitions: lock-evidence) and the rule
// pages of LA101, LA103, LA106, LA107 and LA114 include it.

// EvidenceKind says what shows that a step is lock code.
type EvidenceKind int

const (
	NoEvidence   EvidenceKind = iota
	ByPattern                 // the key's text matches a lock-key pattern
	ByOwnerCheck              // the same key shape has an owner-checked step
	ByLibrary                 // the same key shape goes to a lock library
	ByFence                   // a fencing INCR is queued in the same MULTI
	ByName                    // a name around the step says lock, mutex, lease or leader
	ByAcquire                 // the key is taken by a lock acquire (IsLockKey)
	ByPackage                 // the package takes locks (a script's only evidence when its keys cannot be followed)
)

// Evidence is why a step is lock code.
type Evidence struct {
	Kind    EvidenceKind
	Pattern string      // ByPattern: the pattern matched
	Op      *resolve.Op // ByOwnerCheck, ByLibrary, ByFence, ByAcquire, ByPackage: the op that shows it
	Name    string      // ByName: the identifier
}

// AcquireEvidence says whether a native SET NX/SETNX (op.IsAcquire) takes
// a lock rather than setting a flag, a marker or a cache entry: its key's
// text matches a lock-key pattern; or the same key shape has an
// owner-checked step in the package (a compare-and-delete or
// compare-and-extend, native or Lua, a WATCH-guarded MULTI, a GET whose
// reply is compared with the value this acquire writes or with another
// variable, isToken); or the same key
// shape goes to a lock library; or a fencing INCR shares its MULTI; or a
// name around it says lock, mutex, lease or leader (LockWord): the
// enclosing function, its receiver type, the package, an identifier in the
// key expression. A plain DEL or an EXPIRE of the key is no evidence:
// flags are cleared and markers expire that way too.
//
// A generic wrapper whose key is a parameter (a client library's SetNX)
// has no key text and no owner check of its own, so unless its names say
// lock it gets no evidence here: it is to be judged where it is called.
func (in *Info) AcquireEvidence(op *resolve.Op) (Evidence, bool) {
	if !op.IsAcquire() || len(op.Keys) == 0 {
		return Evidence{}, false
	}
	s := in.ShapeOf(op.Key())
	if p, ok := matchShape(in.Settings.LockKey, s); ok {
		return Evidence{Kind: ByPattern, Pattern: p}, true
	}
	in.lockFacts()
	if k := s.Key(); k != "" {
		if o := in.owner[k]; o != nil {
			return Evidence{Kind: ByOwnerCheck, Op: o}, true
		}
		if o := in.library[k]; o != nil {
			return Evidence{Kind: ByLibrary, Op: o}, true
		}
		for _, g := range in.gets[k] {
			for _, c := range g.compared {
				if in.isToken(c, op.Value) {
					return Evidence{Kind: ByOwnerCheck, Op: g.op}, true
				}
			}
		}
	}
	if op.Tx != nil && op.Tx.Kind == resolve.Multi {
		for _, o := range op.Tx.Ops {
			if in.IsFenceKey(o) {
				return Evidence{Kind: ByFence, Op: o}, true
			}
		}
	}
	if name, ok := in.lockName(op, op.Keys...); ok {
		return Evidence{Kind: ByName, Name: name}, true
	}
	return Evidence{}, false
}

// IsLockAcquire reports whether an op takes a lock: a library's acquire, a
// Lua script that acquires (SET NX PX in Lua is lock code by itself), a
// native SET NX/SETNX with lock evidence (AcquireEvidence), or a run of a
// Lua guarded set with lock evidence (GuardedEvidence).
func (in *Info) IsLockAcquire(op *resolve.Op) bool {
	if op.Steps()&resolve.StepAcquire == 0 {
		_, ok := in.GuardedEvidence(op)
		return ok
	}
	if !op.Native() {
		return true
	}
	_, ok := in.AcquireEvidence(op)
	return ok
}

// ScriptEvidence says whether a Lua script that compares and deletes (or
// extends) without acquiring is a lock's release rather than a data
// compare-and-delete ("delete this entry only if its bytes are
// unchanged"): a key passed to one of its runs is a lock key (IsLockKey);
// or a name at its definition or one of its runs says lock, mutex, lease or
// leader (the variable holding it, the enclosing function and receiver,
// the package, an identifier among the arguments); or, because the key a
// script's KEYS[n] stands for cannot yet be followed through every run,
// the package takes locks (a scripted acquire, a lock library acquire, a
// SET NX with evidence).
func (in *Info) ScriptEvidence(sc *resolve.Script) (Evidence, bool) {
	for _, op := range in.Ops {
		if op.Script == nil || op.Script.Pos != sc.Pos {
			continue
		}
		if ev, ok := in.RunEvidence(op); ok {
			return ev, true
		}
	}
	if o := in.packageLock(); o != nil {
		return Evidence{Kind: ByPackage, Op: o}, true
	}
	return Evidence{}, false
}

// RunEvidence says whether one definition or run of a script (op) shows
// it to be lock code: a key it passes is a lock key (IsLockKey), or a name
// around it says lock (the variable a definition is assigned to, the
// enclosing function and receiver, the package, an identifier among the
// arguments). It is how a script that another package's wrapper fixes,
// and runs on the key its caller passes, is judged at that caller.
func (in *Info) RunEvidence(op *resolve.Op) (Evidence, bool) {
	for _, k := range op.Keys {
		if lk, ok := in.IsLockKey(k); ok {
			if lk.Acquire != nil {
				return Evidence{Kind: ByAcquire, Op: lk.Acquire}, true
			}
			return Evidence{Kind: ByPattern, Pattern: lk.Pattern}, true
		}
	}
	if name, ok := in.runName(op); ok {
		return Evidence{Kind: ByName, Name: name}, true
	}
	return Evidence{}, false
}

// runName is a name around one definition or run of a script that says
// lock (lockName over its keys and, at a definition, its arguments).
func (in *Info) runName(op *resolve.Op) (string, bool) {
	args := append([]ast.Expr(nil), op.Keys...)
	if op.Script != nil && (op.Kind == resolve.ScriptDef || op.Script.Inline) && op.Script.Def != nil {
		args = append(args, op.Script.Def.Args...)
	}
	return in.lockName(op, args...)
}

// HeldScript says whether what a scripted acquire (sc) takes is held as a
// lock, the question its written value matters to: a name around the
// script or one of its runs says lock, a lock-key pattern or another
// acquire takes the key, or the package frees or renews the key it takes
// (a DEL, a release or extend) — that release is what a value unique per
// holder protects. A claim that is only left to expire (a dedup mark, a
// send cooldown: SET KEYS[1] "1" NX EX) is compared by no release.
func (in *Info) HeldScript(sc *resolve.Script) bool {
	var taken []string
	for _, op := range in.Ops {
		if op.Script == nil || op.Script.Pos != sc.Pos {
			continue
		}
		if _, ok := in.runName(op); ok {
			return true
		}
		if op.Kind != resolve.Command {
			continue
		}
		k := stepKey(op)
		if k == nil {
			continue
		}
		if lk, ok := in.IsLockKey(k); ok && (lk.Acquire == nil || lk.Acquire.Script == nil || lk.Acquire.Script.Pos != sc.Pos) {
			return true
		}
		if key := in.ShapeOf(k).Key(); key != "" {
			taken = append(taken, key)
		}
	}
	for _, op := range in.Ops {
		if op.Script != nil && op.Script.Pos == sc.Pos || op.Steps()&(resolve.StepDelete|resolve.StepRelease|resolve.StepExtend|resolve.StepExpire) == 0 {
			continue
		}
		for _, k := range op.Keys {
			if slices.Contains(taken, in.ShapeOf(k).Key()) {
				return true
			}
		}
	}
	return false
}

// packageLock returns the package's first lock acquire (a Lua acquire, a
// library acquire, a SET NX with evidence), or nil.
func (in *Info) packageLock() *resolve.Op {
	in.pkgOnce.Do(func() {
		for _, op := range in.Ops {
			scripted := op.Script != nil && op.Script.Steps&lua.Acquire != 0
			library := op.Kind == resolve.Library && (op.Step == "acquire" || op.Step == "locker")
			if scripted || library || (op.IsAcquire() && in.IsLockAcquire(op)) {
				in.pkgLock = op
				return
			}
		}
	})
	return in.pkgLock
}

// WrapperSaysLock reports whether op is a call of a wrapper whose own
// names (its name, receiver type, package) say lock: such a wrapper has
// lock evidence where it is, and what it fixes itself (a TTL it leaves
// out) is reported there, not at its callers.
func WrapperSaysLock(op *resolve.Op) bool {
	if op.Via == nil {
		return false
	}
	fn := op.Via.Func
	if LockWord(fn.Name()) || LockWord(resolve.RecvName(fn)) {
		return true
	}
	return fn.Pkg() != nil && LockWord(fn.Pkg().Name()) && !commandNamed(fn.Name(), op)
}

// commandNamed reports whether a function's name is the command op sends
// (SetNX for SET NX or SETNX, Del, Eval, with a Ctx or Context suffix):
// a client's generic method, not a lock step. The package around such a
// wrapper is no evidence for it (redis_lock.Client.SetNX beside the lock's
// own acquire): a wrapper is judged at its callers.
func commandNamed(name string, op *resolve.Op) bool {
	n := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(name, "Ctx"), "Context"))
	return op.Name != "" && (n == op.Name || op.NX && n == op.Name+"NX")
}

// isToken reports whether a GET's reply compared with c checks the owner
// of a key whose acquire wrote value: c is not a constant, and it is that
// value (the same variable, field or template) or a variable (the token,
// kept by whoever acquired). A comparison with a constant reads a state
// ("paused", "on"), not an owner.
func (in *Info) isToken(c, value ast.Expr) bool {
	if tv, ok := in.TypesInfo.Types[c]; ok && (tv.Value != nil || tv.IsNil()) {
		return false
	}
	cs := in.ShapeOf(c)
	return cs.Kind == Object || (value != nil && cs.Same(in.ShapeOf(value)))
}

// getCheck is a GET whose reply is compared: the expressions it is
// compared with.
type getCheck struct {
	op       *resolve.Op
	compared []ast.Expr
}

// lockFacts indexes, once, what the evidence needs: the package's native
// acquires, the keys with an owner-checked step or a library step, and the
// GETs whose replies are compared.
func (in *Info) lockFacts() {
	in.lockOnce.Do(func() {
		in.acquired = map[string][]*resolve.Op{}
		in.owner = map[string]*resolve.Op{}
		in.library = map[string]*resolve.Op{}
		in.gets = map[string][]*getCheck{}
		for _, op := range in.Ops {
			if len(op.Keys) == 0 {
				continue
			}
			if op.Kind == resolve.Library {
				for _, k := range op.Keys {
					if key := in.ShapeOf(k).Key(); key != "" && in.library[key] == nil {
						in.library[key] = op
					}
				}
				continue
			}
			if op.Kind != resolve.Command {
				continue
			}
			key := in.ShapeOf(op.Key()).Key()
			if op.Script != nil && op.Script.Detail.Key > 0 && op.Complete && op.Steps()&resolve.StepAcquire != 0 {
				// A Lua acquire (a uniqueness lock taken with SET KEYS[2]
				// ... NX): the key its SET NX uses is acquired.
				if k := in.ShapeOf(stepKey(op)).Key(); k != "" {
					in.acquired[k] = append(in.acquired[k], op)
				}
			}
			switch {
			case op.IsAcquire():
				if key != "" {
					in.acquired[key] = append(in.acquired[key], op)
				}
			case op.Steps()&(resolve.StepRelease|resolve.StepExtend) != 0:
				// A Lua run's keys: which of them the step touches is not
				// known, so each counts.
				for _, k := range op.Keys {
					if key := in.ShapeOf(k).Key(); key != "" && in.owner[key] == nil {
						in.owner[key] = op
					}
				}
			case op.Steps()&(resolve.StepDelete|resolve.StepExpire) != 0 && in.WatchGuarded(op):
				if key != "" && in.owner[key] == nil {
					in.owner[key] = op
				}
			case op.Name == "GET" && op.Native():
				if c := in.comparedWith(op); len(c) > 0 {
					g := &getCheck{op: op, compared: c}
					in.checks = append(in.checks, g)
					if key != "" {
						in.gets[key] = append(in.gets[key], g)
					}
				}
			}
		}
		in.findGuarded()
	})
}

// CheckedBefore returns the GET of the same key, earlier in the same
// function, whose reply the code compares with a token it holds (isToken:
// a variable, not a constant) before a delete or an expire: the owner
// check that runs in a separate round trip from the step it guards. Nil
// when there is none.
func (in *Info) CheckedBefore(op *resolve.Op) *resolve.Op {
	if op.Func == nil || len(op.Keys) == 0 {
		return nil
	}
	in.lockFacts()
	for _, g := range in.checks {
		if g.op.Func != op.Func || g.op.Pos >= op.Pos || !in.SameKey(g.op.Key(), op.Key()) {
			continue
		}
		for _, c := range g.compared {
			if in.isToken(c, nil) {
				return g.op
			}
		}
	}
	return nil
}

// comparedWith returns what a GET's reply is compared with (== or !=,
// bytes.Equal and the like) in the function that sends it: the reply read
// directly, or through variables assigned from it.
func (in *Info) comparedWith(get *resolve.Op) []ast.Expr {
	var body *ast.BlockStmt
	switch {
	case get.Lit != nil:
		body = get.Lit.Body
	case get.Func != nil:
		body = get.Func.Body
	}
	if body == nil || get.Call == nil {
		return nil
	}
	carriers := map[types.Object]bool{}
	carries := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				found = found || n == get.Call
			case *ast.Ident:
				found = found || carriers[in.ObjOf(n)]
			}
			return !found
		})
		return found
	}
	mark := func(lhs []ast.Expr) {
		for _, l := range lhs {
			if obj := in.Target(l); obj != nil {
				if t := obj.Type(); t != nil && !types.Identical(t, errorType) {
					carriers[obj] = true
				}
			}
		}
	}
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || n.End() < get.Pos {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if carries(r) {
					mark(n.Lhs)
					break
				}
			}
		case *ast.ValueSpec:
			for _, v := range n.Values {
				if carries(v) {
					for _, name := range n.Names {
						mark([]ast.Expr{name})
					}
					break
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				switch {
				case carries(n.X):
					out = append(out, n.Y)
				case carries(n.Y):
					out = append(out, n.X)
				}
			}
		case *ast.CallExpr:
			if isEqualFunc(in, n) && len(n.Args) == 2 {
				switch {
				case carries(n.Args[0]):
					out = append(out, n.Args[1])
				case carries(n.Args[1]):
					out = append(out, n.Args[0])
				}
			}
		}
		return true
	})
	return out
}

var errorType = types.Universe.Lookup("error").Type()

// isEqualFunc reports a call that compares two values: bytes.Equal,
// strings.EqualFold, subtle.ConstantTimeCompare, reflect.DeepEqual.
func isEqualFunc(in *Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Equal", "EqualFold", "ConstantTimeCompare", "DeepEqual":
	default:
		return false
	}
	fn, ok := in.ObjOf(sel).(*types.Func)
	return ok && fn.Pkg() != nil && equalPkgs[fn.Pkg().Path()]
}

var equalPkgs = map[string]bool{"bytes": true, "strings": true, "crypto/subtle": true, "reflect": true}

// lockName returns the first name around op that says lock (LockWord):
// the identifiers in exprs (following a local assigned once to its
// value), the variable or field a script definition is assigned to, the
// enclosing function, its receiver type, and the package; for a call of
// a wrapper, also the wrapper's name, receiver type and package.
func (in *Info) lockName(op *resolve.Op, exprs ...ast.Expr) (string, bool) {
	var names []string
	for _, e := range exprs {
		names = append(names, in.identNames(e, 1)...)
	}
	if op.Kind == resolve.ScriptDef || (op.Script != nil && op.Script.Inline) {
		names = append(names, assignedNames(op.Stack)...)
	}
	if fd := op.Func; fd != nil {
		names = append(names, fd.Name.Name)
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			names = append(names, syntax.RecvTypeName(fd.Recv.List[0].Type))
		}
	}
	// Inside a generic wrapper whose callers pass the key and which is
	// named for the command it sends (Client.SetNX), the package's name
	// is no evidence: the wrapper is judged at its callers.
	generic := op.InWrapper != nil && op.InWrapper.Passed&resolve.PassedKey != 0 && op.Func != nil && commandNamed(op.Func.Name.Name, op)
	if in.Pkg != nil && !generic {
		names = append(names, in.Pkg.Name())
	}
	if op.Via != nil {
		// A call of a wrapper: the wrapper's own names (func (l *Locker)
		// TryLock, locks.Acquire). A generic SetNX wrapper has none.
		fn := op.Via.Func
		names = append(names, fn.Name(), resolve.RecvName(fn))
		if fn.Pkg() != nil && !commandNamed(fn.Name(), op) {
			names = append(names, fn.Pkg().Name())
		}
	}
	for _, n := range names {
		if LockWord(n) {
			return n, true
		}
	}
	return "", false
}

// identNames lists the identifiers of an expression; with follow > 0, also
// those of the value a local assigned once holds. Of a key template
// (fmt.Sprintf with a constant format, a string concatenation) only the
// leading component names the key (leadingName): the holes after it are
// its parameters, and a lockKeySuffix filling "queued:%s:%d:%s" does not
// make a dedupe marker a lock key.
func (in *Info) identNames(e ast.Expr, follow int) []string {
	var out []string
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok {
			if lead, ok := in.leadingName(x); ok {
				if lead != nil {
					out = append(out, in.identNames(lead, follow)...)
				}
				return false
			}
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		out = append(out, id.Name)
		if follow > 0 {
			if v, ok := in.ObjOf(id).(*types.Var); ok && !v.IsField() {
				if val := in.SingleValue(v); val != nil {
					out = append(out, in.identNames(val, follow-1)...)
				}
			}
		}
		return true
	})
	return out
}

// leadingName reports whether e is a key template whose later components
// are no name of the key, and returns the component that is: the first
// hole when the template begins with one (fmt.Sprintf("%s:%d",
// lockPrefix, id), prefix+":"+id), nil when it begins with constant text
// that says nothing of a lock ("queued:%s:%d:%s"). A template that begins
// with text saying lock ("mylock_"+id), or that is not one (a format that
// is no constant), is read whole (ok false).
func (in *Info) leadingName(e ast.Expr) (lead ast.Expr, ok bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(in.TypesInfo, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(x.Args) < 2 {
			return nil, false
		}
		tv := in.TypesInfo.Types[x.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return nil, false
		}
		format := constant.StringVal(tv.Value)
		if strings.HasPrefix(format, "%") && !strings.HasPrefix(format, "%%") {
			return x.Args[1], true
		}
		text, _, _ := strings.Cut(format, "%")
		return nil, !LockWord(text)
	case *ast.BinaryExpr:
		if x.Op != token.ADD || !syntax.IsString(in.TypesInfo.TypeOf(x)) {
			return nil, false
		}
		first := x.X
		for {
			b, ok := ast.Unparen(first).(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				break
			}
			first = b.X
		}
		if tv, ok := in.TypesInfo.Types[first]; ok && tv.Value != nil {
			if tv.Value.Kind() != constant.String || LockWord(constant.StringVal(tv.Value)) {
				return nil, false
			}
			return nil, true
		}
		return first, true
	}
	return nil, false
}

// assignedNames returns the names a call on the stack is assigned to: the
// variables of a declaration or assignment, the field of a composite
// literal.
func assignedNames(stack []ast.Node) []string {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ValueSpec:
			var out []string
			for _, id := range n.Names {
				out = append(out, id.Name)
			}
			return out
		case *ast.AssignStmt:
			var out []string
			for _, l := range n.Lhs {
				switch l := ast.Unparen(l).(type) {
				case *ast.Ident:
					out = append(out, l.Name)
				case *ast.SelectorExpr:
					out = append(out, l.Sel.Name)
				}
			}
			return out
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				return []string{id.Name}
			}
			return nil
		case ast.Stmt, ast.Decl:
			return nil
		}
	}
	return nil
}

// LockWord reports whether an identifier has a word that says lock:
// lock, locks, locked, locker, locking — also at the end of a word
// (unlock, redislock, distlock), but not block or clock — mutex, lease
// (not release), leader. Words are split at case changes, digits and
// underscores: acquireLock, lock_key, HTTPLock, LeaseKey.
func LockWord(name string) bool {
	for _, w := range words(name) {
		if strings.HasPrefix(w, "mutex") || strings.HasPrefix(w, "lease") || strings.HasPrefix(w, "leader") {
			return true
		}
		for _, suffix := range []string{"lock", "locks", "locked", "locker", "lockers", "locking"} {
			if pre, ok := strings.CutSuffix(w, suffix); ok && !strings.HasSuffix(pre, "b") && !strings.HasSuffix(pre, "c") {
				return true
			}
		}
	}
	return false
}

// words splits an identifier into lower-case words.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
		start = end
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r):
			flush(i)
			start = i + 1
		case i > start && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush(i)
		}
	}
	flush(len(rs))
	return out
}

// Reentrant reports whether an acquire belongs to a reentrant lock, whose
// token is its owner's identity by design: in the acquire's function the
// owner re-acquires (a GET of the same key compared with the value the
// acquire writes) or a hold count is raised (a field named for a count,
// hold or depth incremented); or, for a scripted acquire, the script
// itself extends the key for the owner that already holds it
// (lua.Detail.Reenter), also around a guarded set.
func (in *Info) Reentrant(op *resolve.Op) bool {
	if op.Script != nil && (op.Script.Steps&lua.Acquire != 0 || op.Script.Detail.Guarded != 0) {
		return op.Script.Detail.Reenter
	}
	if !op.IsAcquire() || op.Func == nil || op.Value == nil || len(op.Keys) == 0 {
		return false
	}
	in.lockFacts()
	value := in.ShapeOf(op.Value)
	for _, g := range in.gets[in.ShapeOf(op.Key()).Key()] {
		if g.op.Func != op.Func {
			continue
		}
		for _, c := range g.compared {
			if in.ShapeOf(c).Same(value) {
				return true
			}
		}
	}
	counted := false
	ast.Inspect(op.Func.Body, func(n ast.Node) bool {
		var target ast.Expr
		switch s := n.(type) {
		case *ast.IncDecStmt:
			if s.Tok == token.INC {
				target = s.X
			}
		case *ast.AssignStmt:
			if s.Tok == token.ADD_ASSIGN && len(s.Lhs) == 1 {
				target = s.Lhs[0]
			}
		}
		if sel, ok := ast.Unparen(target).(*ast.SelectorExpr); ok && holdCount(sel.Sel.Name) {
			counted = true
		}
		return !counted
	})
	return counted
}

// holdCount reports a name for a reentrant lock's hold count: count,
// holds, depth, reentries ...
func holdCount(name string) bool {
	for _, w := range words(name) {
		switch w {
		case "count", "counter", "hold", "holds", "held", "depth", "reentry", "reentries", "reentrant", "reentrance", "entries", "recursion":
			return true
		}
	}
	return false
}
