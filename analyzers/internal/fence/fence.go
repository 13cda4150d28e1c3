// Package fence knows a package's fencing counters: which INCRs are fences
// (Fence: by key pattern, by sharing the acquire's MULTI, or because their
// reply reaches a protected-resource write), which values in a function
// derive from a fence's reply (Taint), and which calls write to a
// protected resource (IsWriter, WriterCalls).
package fence

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/keys"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
	"github.com/lockaudit/lockaudit/analyzers/settings"
)

// Analyzer gives every rule of a package one shared *Info.
var Analyzer = &analysis.Analyzer{
	Name:             "lockfence",
	Doc:              "fencing counters, fence taint and protected-resource writes for the LA1xx rules (infrastructure; reports nothing)",
	Requires:         []*analysis.Analyzer{keys.Analyzer},
	Run:              func(pass *analysis.Pass) (any, error) { return New(keys.Of(pass)), nil },
	ResultType:       reflect.TypeOf((*Info)(nil)),
	RunDespiteErrors: true,
}

// Of returns the pass's Info; the rule must require Analyzer.
func Of(pass *analysis.Pass) *Info { return pass.ResultOf[Analyzer].(*Info) }

// Info holds one package's fence facts, on top of its key facts (whose
// methods it has), built on first use.
type Info struct {
	*keys.Info
	once  sync.Once
	facts *fenceFacts
}

// New builds an Info; Analyzer calls it, tests may too.
func New(k *keys.Info) *Info { return &Info{Info: k} }

// FenceWhy says what makes an INCR a fence.
type FenceWhy int

const (
	NotFence FenceWhy = iota
	ByKey             // its key matches a fence-key pattern
	ByMulti           // it shares a MULTI with a lock acquire
	ByWrite           // its reply reaches a writer's arguments
)

// Fence reports whether an INCR/INCRBY is a fencing counter, and why: its
// key matches a fence-key pattern (fence:{job}); or it is queued in the same
// MULTI as a SET NX; or its reply (through locals, Result/Val, the
// transaction's results) reaches the arguments of a protected-resource
// write in the same function. A counter next to an acquire whose value
// goes nowhere (attempt counters, rate limits) is not a fence.
func (in *Info) Fence(op *resolve.Op) FenceWhy {
	if !keys.IsIncr(op) {
		return NotFence
	}
	return in.fenceFacts().fences[op]
}

type fenceFacts struct {
	fences map[*resolve.Op]FenceWhy
	fields map[types.Object]bool // struct fields assigned fence-derived values
	funcs  map[*types.Func]bool  // package functions returning fence-derived values
}

func (in *Info) fenceFacts() *fenceFacts {
	in.once.Do(func() {
		f := &fenceFacts{fences: map[*resolve.Op]FenceWhy{}, fields: map[types.Object]bool{}, funcs: map[*types.Func]bool{}}
		byFunc := map[*ast.FuncDecl][]*resolve.Op{}
		var others []*resolve.Op
		for _, op := range in.Ops {
			if !keys.IsIncr(op) {
				continue
			}
			switch {
			case in.IsFenceKey(op):
				f.fences[op] = ByKey
			case op.Tx != nil && op.Tx.Kind == resolve.Multi && txAcquires(op.Tx):
				f.fences[op] = ByMulti
			default:
				others = append(others, op)
				continue
			}
			if op.Func != nil {
				byFunc[op.Func] = append(byFunc[op.Func], op)
			}
		}
		// Fields and helpers that carry a fence out of the function that draws it.
		for fd, ops := range byFunc {
			t := in.taint(fd, ops, f)
			for obj := range t.objs {
				if v, ok := obj.(*types.Var); ok && v.IsField() {
					f.fields[obj] = true
				}
			}
			if t.returns {
				if fn, ok := in.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					f.funcs[fn] = true
				}
			}
		}
		// Counters whose value reaches a write.
		for _, op := range others {
			if op.Func == nil {
				continue
			}
			t := in.taint(op.Func, []*resolve.Op{op}, f)
			for _, w := range in.WriterCalls(op.Func) {
				if w.Pos() > op.Pos && t.CarriesAny(w.Args) {
					f.fences[op] = ByWrite
					break
				}
			}
		}
		in.facts = f
	})
	return in.facts
}

func txAcquires(tx *resolve.Tx) bool {
	for _, o := range tx.Ops {
		if o.IsAcquire() {
			return true
		}
	}
	return false
}

// Taint is the set of values in one function that derive from a fencing
// counter's reply.
type Taint struct {
	in      *Info
	facts   *fenceFacts
	fences  []*resolve.Op // the function's own fencing INCRs
	objs    map[types.Object]bool
	srcs    map[ast.Node]bool
	returns bool // a return statement carries a fence
	draws   bool // the function draws a fence (or reads one a helper or field carries)
}

// Taint returns the fence-derived values of a function: the replies
// of its fencing INCRs (through Result/Val/Int, the transaction's result
// slice or the *IntCmd queued in TxPipelined, redigo's EXEC reply,
// valkey-go's DoMulti results, glide batch results, a radix receiver), what
// is computed from them, fields assigned them anywhere in the package, and
// results of package functions that return them.
func (in *Info) Taint(fd *ast.FuncDecl) *Taint {
	f := in.fenceFacts()
	var ops []*resolve.Op
	for _, op := range in.Ops {
		if op.Func == fd && f.fences[op] != NotFence {
			ops = append(ops, op)
		}
	}
	return in.taint(fd, ops, f)
}

// Draws reports whether the function draws a fence, or reads one that a
// helper returns or a field holds.
func (t *Taint) Draws() bool { return t.draws }

// Fences returns the function's own fencing INCRs, in source order.
func (t *Taint) Fences() []*resolve.Op { return t.fences }

// Carries reports whether e derives from a fence.
func (t *Taint) Carries(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if t.srcs[n] {
			found = true
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if obj := t.in.TypesInfo.Uses[n]; obj != nil && t.objs[obj] {
				found = true
			}
		case *ast.SelectorExpr:
			if sel := t.in.TypesInfo.Selections[n]; sel != nil && sel.Kind() == types.FieldVal && (t.objs[sel.Obj()] || t.facts.fields[sel.Obj()]) {
				found = true
			}
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(t.in.TypesInfo, n).(*types.Func); ok && t.facts.funcs[fn] {
				found = true
			}
		}
		return !found
	})
	return found
}

// CarriesAny reports whether any of the expressions derives from a fence.
func (t *Taint) CarriesAny(list []ast.Expr) bool {
	for _, e := range list {
		if t.Carries(e) {
			return true
		}
	}
	return false
}

// taint propagates fence replies through a function body to a fixed point.
func (in *Info) taint(fd *ast.FuncDecl, ops []*resolve.Op, f *fenceFacts) *Taint {
	t := &Taint{in: in, facts: f, objs: map[types.Object]bool{}, srcs: map[ast.Node]bool{}, fences: ops}
	for _, op := range ops {
		t.draws = true
		t.srcs[op.Call] = true
		if op.Expr != nil {
			t.srcs[op.Expr] = true
		}
		if op.Tx != nil {
			if exec := in.CallAt(op.Tx.Pos); exec != nil {
				t.srcs[exec] = true
			}
		}
		if op.Client.Replies == resolve.InReceiver {
			if action, ok := ast.Unparen(op.Expr).(*ast.CallExpr); ok && len(action.Args) > 0 {
				if u, ok := ast.Unparen(action.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if obj := in.ObjOf(u.X); obj != nil {
						t.objs[obj] = true
					}
				}
			}
		}
	}
	if fd.Body == nil {
		return t
	}
	var stmts []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt, *ast.ValueSpec, *ast.RangeStmt, *ast.CallExpr, *ast.ReturnStmt:
			stmts = append(stmts, n)
		case *ast.SelectorExpr:
			if sel := in.TypesInfo.Selections[n]; sel != nil && sel.Kind() == types.FieldVal && f.fields[sel.Obj()] {
				t.draws = true
			}
		}
		if c, ok := n.(*ast.CallExpr); ok {
			if fn, ok := typeutil.Callee(in.TypesInfo, c).(*types.Func); ok && f.funcs[fn] {
				t.draws = true
			}
		}
		return true
	})
	for range 10 {
		changed := false
		for _, n := range stmts {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						if t.Carries(n.Rhs[i]) {
							changed = t.mark(n.Lhs[i]) || changed
						}
					}
				} else if len(n.Rhs) == 1 && t.Carries(n.Rhs[0]) {
					for _, l := range n.Lhs {
						changed = t.mark(l) || changed
					}
				}
			case *ast.ValueSpec:
				for i, v := range n.Values {
					if !t.Carries(v) {
						continue
					}
					if len(n.Values) == len(n.Names) {
						changed = t.mark(n.Names[i]) || changed
					} else {
						for _, name := range n.Names {
							changed = t.mark(name) || changed
						}
					}
				}
			case *ast.RangeStmt:
				if t.Carries(n.X) {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if e != nil {
							changed = t.mark(e) || changed
						}
					}
				}
			case *ast.CallExpr:
				// f(tainted, &x) and tainted.Scan(&x) taint x.
				if !t.Carries(n) {
					continue
				}
				for _, a := range n.Args {
					if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
						changed = t.mark(u.X) || changed
					}
				}
			case *ast.ReturnStmt:
				if t.returns || in.EnclosingFunc(n) != ast.Node(fd) {
					continue
				}
				if t.CarriesAny(n.Results) || (len(n.Results) == 0 && t.namedResultTainted(fd)) {
					t.returns = true
				}
			}
		}
		if !changed {
			break
		}
	}
	return t
}

// namedResultTainted reports a named result of fd that carries a fence
// (returned by a bare return).
func (t *Taint) namedResultTainted(fd *ast.FuncDecl) bool {
	if fd.Type.Results == nil {
		return false
	}
	for _, f := range fd.Type.Results.List {
		for _, name := range f.Names {
			if obj := t.in.TypesInfo.Defs[name]; obj != nil && t.objs[obj] {
				return true
			}
		}
	}
	return false
}

// mark taints the variable or field an assignment target names.
func (t *Taint) mark(lhs ast.Expr) bool {
	switch x := ast.Unparen(lhs).(type) {
	case *ast.IndexExpr:
		return t.mark(x.X)
	case *ast.StarExpr:
		return t.mark(x.X)
	}
	obj := t.in.Target(lhs)
	if obj == nil || t.objs[obj] || syntax.IsError(obj.Type()) {
		return false // an error is not the fence, even when it comes with one
	}
	t.objs[obj] = true
	return true
}

// IsWriter reports whether a call writes to a protected resource: a default
// or configured writer (Writers), or an interface method named Exec or
// ExecContext returning (database/sql.Result, error) or
// (pgconn.CommandTag, error).
func (in *Info) IsWriter(call *ast.CallExpr) (string, bool) {
	fn, _ := typeutil.Callee(in.TypesInfo, call).(*types.Func)
	if fn == nil {
		return "", false
	}
	name := settings.WriterName(fn)
	if in.Settings.Writer(name) {
		return name, true
	}
	if fn.Name() != "Exec" && fn.Name() != "ExecContext" {
		return "", false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Results().Len() != 2 {
		return "", false
	}
	if n, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "database/sql.Result", "github.com/jackc/pgx/v5/pgconn.CommandTag":
			return name, true
		}
	}
	return "", false
}

// WriterCalls returns the protected-resource writes in a function (nested
// function literals included), in source order.
func (in *Info) WriterCalls(fd *ast.FuncDecl) []*ast.CallExpr {
	if fd == nil || fd.Body == nil {
		return nil
	}
	var out []*ast.CallExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if _, ok := in.IsWriter(c); ok {
				out = append(out, c)
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}
