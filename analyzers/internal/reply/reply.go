// Package reply knows how code uses a command's reply (Of): discarded,
// only its error checked, examined, or unseen — for every client's reply
// shape (Client.Replies), for library calls and for commands queued in a
// transaction or pipeline.
package reply

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockaudit/lockaudit/analyzers/internal/lua"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Use says how the code uses a command's reply. The values are ordered:
// combining two uses keeps the larger.
type Use int

const (
	Discarded Use = iota + 1 // neither the reply nor its error is read
	ErrorOnly                // only the error is checked
	NeverTrue                // the value is only compared, as an interface, with a constant it can never equal (Comparison)
	Examined                 // the reply value is read
	Unseen                   // cannot tell: the reply is stored, passed on, or read through a batch's results
)

func (u Use) String() string {
	switch u {
	case Discarded:
		return "discarded"
	case ErrorOnly:
		return "error-only"
	case NeverTrue:
		return "never-true"
	case Examined:
		return "examined"
	case Unseen:
		return "unseen"
	}
	return "?"
}

// part is what one value produced by an expression carries.
type part int

const (
	pNone   part = iota // nothing about the reply (a pipelined Send's error, a batch builder)
	pValue              // the reply value
	pError              // the error
	pObject             // a reply object (go-redis *Cmd, ValkeyResult): its methods split value and error
)

// Of classifies how an op's reply is used:
//   - Discarded: an expression statement, go/defer, assigned to _;
//   - ErrorOnly: .Err()/.Error(), `_, err :=`, a result variable only ever
//     used through .Err();
//   - Examined: the value is read, compared, returned or passed on;
//   - Unseen: it cannot be told (stored in a field, read back through a
//     transaction's result slice, a radix receiver that is not &v ...).
//
// For a library call and a SET IFEQ on a client that reports "lost" as an
// error (Client.LostIsError: ErrTaken, ErrLockNotHeld, redis.Nil,
// valkey.Nil), checking the error IS examining the reply. A queued command's reply combines its own call's use
// with the use of the call that sends its group (TxPipelined, Exec,
// Do("EXEC"), DoMulti): when that result slice is read at all, the reply is
// Unseen.
func Of(x *syntax.Index, op *resolve.Op) Use {
	u, _, _ := Comparison(x, op)
	return u
}

// Comparison is Of, and when the use is NeverTrue, the first comparison
// that examines the reply in vain and its constant operand: an
// interface-typed reply compared (==, !=) with an integer constant whose
// type is not int64 (`status == 0`: the untyped 0 becomes int). The Go
// clients whose replies come as interface values (redigo's Do and
// Script.Do, go-redis's Cmd.Val and Result) decode a Redis integer as
// int64, so such a comparison is never true whatever the server answers.
func Comparison(x *syntax.Index, op *resolve.Op) (u Use, cmp *ast.BinaryExpr, operand ast.Expr) {
	if op.Call == nil {
		return Unseen, nil, nil
	}
	if x.TypesInfo.TypeOf(op.Call) == nil {
		return Unseen, nil, nil
	}
	w := &walker{x: x, errIsReply: NilIsError(op), seen: map[types.Object]bool{}, exclude: map[ast.Node]bool{}}
	u = w.of(op)
	if u != NeverTrue {
		return u, nil, nil
	}
	return u, w.never, w.neverConst
}

func (w *walker) of(op *resolve.Op) Use {
	x := w.x
	if op.Via != nil {
		return w.viaUse(op)
	}
	lib := op.Kind == resolve.Library
	parts := resultParts(x, op.Call, lib)
	var u Use
	inReceiver := op.Client.Replies == resolve.InReceiver
	if inReceiver {
		// The reply goes into the action's receiver; Do returns the error.
		// An action that is built but sent elsewhere cannot be followed.
		if t := x.TypesInfo.TypeOf(op.Call); t == nil || !syntax.IsError(t) {
			return Unseen
		}
		u = max(w.use(op.Call, []part{pError}), w.receiver(op))
	} else {
		u = w.use(op.Call, parts)
	}
	if op.Tx != nil {
		exec := x.CallAt(op.Tx.Pos)
		if exec == nil {
			return Unseen
		}
		if exec != op.Call {
			if inReceiver && len(exec.Args) > 0 {
				// conn.Do(radix.Cmd(&replies, "EXEC")): the replies go
				// into EXEC's receiver.
				u = max(u, w.use(exec, []part{pError}), w.receiverOf(exec.Args[len(exec.Args)-1]))
			} else {
				u = max(u, w.use(exec, resultParts(x, exec, false)))
			}
		}
	} else if allNone(parts) && !inReceiver && !lib {
		// A Send outside a transaction: the reply comes from Receive.
		return Unseen
	}
	return u
}

// viaUse classifies the use of a wrapper's reply through the results of
// the wrapper that carry it (Via.Results): its value, or an error the
// wrapper returns when the reply says the lock was lost, is the outcome;
// the reply's own error is the outcome only where the client reports a
// lost lock as an error (NilIsError). When no result carries the outcome,
// the wrapper dealt with it itself (or dropped it: the wrapper's finding,
// not its callers'): the caller's use is Unseen — except where the
// wrapper reads nothing but the reply's error (Via.Dropped) of a script
// its caller passes: the wrapper cannot tell what it runs, and the caller
// can only ever see the error (at most ErrorOnly).
func (w *walker) viaUse(op *resolve.Op) Use {
	parts := make([]part, len(op.Via.Results))
	outcome := false
	for i, c := range op.Via.Results {
		switch c {
		case resolve.CarryValue, resolve.CarryLost:
			parts[i], outcome = pValue, true
		case resolve.CarryError:
			parts[i], outcome = pError, outcome || w.errIsReply
		}
	}
	if !outcome {
		if DroppedInWrapper(op) {
			return min(w.use(op.Call, parts), ErrorOnly)
		}
		return Unseen
	}
	if t := w.x.TypesInfo.TypeOf(op.Call); t != nil {
		if tup, ok := t.(*types.Tuple); ok && tup.Len() == len(parts) {
			for i := range parts {
				if parts[i] == pValue && hasReplyMethods(tup.At(i).Type()) {
					parts[i] = pObject
				}
			}
		} else if len(parts) == 1 && parts[0] == pValue && hasReplyMethods(t) {
			parts[0] = pObject
		}
	}
	return w.use(op.Call, parts)
}

// DroppedInWrapper reports an op through a wrapper that reads nothing of
// the reply but its error (Via.Dropped), running a script its caller
// passes: the value, the lock's outcome, never reaches the caller, and
// the wrapper cannot tell that it was a lock's. Not when the script
// replies the same whatever its lock step did (a data script that frees a
// lock on the side and returns "OK"): that reply holds no outcome to drop.
func DroppedInWrapper(op *resolve.Op) bool {
	if op.Via == nil || !op.Via.Dropped || op.Via.Passed&resolve.PassedScript == 0 {
		return false
	}
	return op.Script == nil || op.Script.Text == "" || !lua.RepliesNoOutcome(op.Script.Text)
}

// NilIsError reports whether the op reports "lost" as an error, so that
// checking the error examines the reply: library calls and SET IFEQ, on a
// client whose LostIsError says so.
func NilIsError(op *resolve.Op) bool {
	return (op.Kind == resolve.Library || op.IsSetIFEQ()) && op.Client.LostIsError
}

func allNone(parts []part) bool {
	for _, p := range parts {
		if p != pNone {
			return false
		}
	}
	return true
}

// resultParts describes the values a call produces.
func resultParts(x *syntax.Index, call *ast.CallExpr, lib bool) []part {
	t := x.TypesInfo.TypeOf(call)
	if t == nil {
		return nil
	}
	if tup, ok := t.(*types.Tuple); ok {
		parts := make([]part, tup.Len())
		for i := range tup.Len() {
			parts[i] = partOf(tup.At(i).Type(), pError)
		}
		return parts
	}
	if syntax.IsError(t) {
		if lib {
			return []part{pError}
		}
		return []part{pNone}
	}
	if isBuilder(x, call, t) {
		return []part{pNone}
	}
	return []part{partOf(t, pError)}
}

func partOf(t types.Type, errPart part) part {
	if syntax.IsError(t) {
		return errPart
	}
	if hasReplyMethods(t) {
		return pObject
	}
	if s, ok := t.Underlying().(*types.Slice); ok && hasReplyMethods(s.Elem()) {
		return pObject
	}
	return pValue
}

// isBuilder reports whether a method call returns its receiver's type (a
// glide batch's chained methods): the result is the builder, not a reply.
func isBuilder(x *syntax.Index, call *ast.CallExpr, t types.Type) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	recv := x.TypesInfo.TypeOf(sel.X)
	return recv != nil && types.Identical(recv, t)
}

// hasReplyMethods reports whether t carries a reply and its error: it has
// Err() error (go-redis) or Error() error (valkey-go, rueidis).
func hasReplyMethods(t types.Type) bool {
	for _, name := range []string{"Err", "Error"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() == 0 && sig.Results().Len() == 1 && syntax.IsError(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}

type walker struct {
	x          *syntax.Index
	errIsReply bool
	seen       map[types.Object]bool
	exclude    map[ast.Node]bool // uses not to count (the &v of a radix receiver)
	never      *ast.BinaryExpr   // the first never-true comparison seen (NeverTrue)
	neverConst ast.Expr          // and its constant operand
}

// use classifies how the values e produces are used.
func (w *walker) use(e ast.Expr, parts []part) Use {
	if len(parts) == 0 || allNone(parts) {
		return Discarded
	}
	p := w.x.Parent(e)
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			break
		}
		e, p = pe, w.x.Parent(pe)
	}
	switch p := p.(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		return Discarded
	case *ast.AssignStmt:
		if p.Tok != token.ASSIGN && p.Tok != token.DEFINE {
			return w.readAll(parts)
		}
		if contains(p.Lhs, e) {
			return Unseen
		}
		return w.assigned(p.Lhs, p.Rhs, e, parts)
	case *ast.ValueSpec:
		names := make([]ast.Expr, len(p.Names))
		for i, n := range p.Names {
			names[i] = n
		}
		return w.assigned(names, p.Values, e, parts)
	case *ast.SelectorExpr:
		if len(parts) != 1 {
			return Unseen
		}
		if parts[0] != pObject {
			return w.read(parts[0])
		}
		call, ok := w.x.Parent(p).(*ast.CallExpr)
		if !ok || call.Fun != p {
			return Unseen // a method value or a field
		}
		sig, ok := w.x.TypesInfo.TypeOf(p).(*types.Signature)
		if !ok {
			return Unseen
		}
		res := sig.Results()
		if res.Len() == 0 {
			return Discarded
		}
		mparts := make([]part, res.Len())
		for i := range res.Len() {
			mparts[i] = pValue
			if syntax.IsError(res.At(i).Type()) {
				mparts[i] = pError
			}
		}
		return w.use(call, mparts)
	case *ast.IndexExpr:
		if p.X == e && len(parts) == 1 {
			return w.use(p, parts)
		}
		return w.readAll(parts)
	case *ast.TypeAssertExpr:
		if len(parts) == 1 {
			return w.use(p, parts)
		}
		return Unseen
	case *ast.RangeStmt:
		if p.X != e || len(parts) != 1 {
			return Unseen
		}
		if p.Value == nil {
			return Discarded // only counted
		}
		return w.target(p.Value, parts[0])
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return Unseen
		}
		return w.readAll(parts)
	case *ast.BinaryExpr:
		if len(parts) == 1 && parts[0] == pValue {
			if k := w.neverEqual(p, e); k != nil {
				if w.never == nil {
					w.never, w.neverConst = p, k
				}
				return NeverTrue
			}
		}
		return w.readAll(parts)
	case *ast.ReturnStmt:
		if w.closureDropped(p, e, parts) {
			return Discarded
		}
		return w.readAll(parts)
	case *ast.CallExpr:
		if ast.Unparen(p.Fun) == e {
			return Unseen
		}
		if len(p.Args) == 1 && len(parts) == 2 && parts[1] == pError {
			// redis.Int(conn.Do(...)): a converter of (reply, err) that
			// returns (value, err) passes both on.
			if tup, ok := w.x.TypesInfo.TypeOf(p).(*types.Tuple); ok && tup.Len() == 2 && syntax.IsError(tup.At(1).Type()) {
				return w.use(p, []part{pValue, pError})
			}
		}
		return w.readAll(parts)
	case nil:
		return Unseen
	}
	return w.readAll(parts)
}

// closureDropped reports whether a function literal returns e (ret is
// its return statement) only to have it dropped: the literal is called
// where it is and that call's results are discarded (func() (int, error)
// { return quorum(...) }()), or it is the callback of a function of the
// package that returns a value besides any error, and every result of
// that function is discarded where the literal is passed (redsync v4's actOnPoolsAsync(func(pool)
// (bool, error) { return m.release(ctx, pool, value) }), whose count of
// releases that found the token a failed-quorum cleanup drops). Anything
// else returned is read by whoever called the literal.
func (w *walker) closureDropped(ret *ast.ReturnStmt, e ast.Expr, parts []part) bool {
	lit, ok := w.x.EnclosingFunc(ret).(*ast.FuncLit)
	if !ok || len(ret.Results) != 1 && !contains(ret.Results, e) {
		return false
	}
	call, ok := w.x.Parent(lit).(*ast.CallExpr)
	if !ok {
		return false
	}
	if call.Fun == lit {
		if len(ret.Results) == 1 {
			return w.use(call, parts) == Discarded
		}
		return w.use(call, []part{pValue}) == Discarded
	}
	fn, ok := typeutil.Callee(w.x.TypesInfo, call).(*types.Func)
	if !ok || w.x.Decl(fn) == nil || !slices.Contains(call.Args, ast.Expr(lit)) {
		return false
	}
	// The function hands the outcome back as a value (a count, a bool);
	// one that returns only an error may have dealt with it itself.
	res := fn.Signature().Results()
	all := make([]part, res.Len())
	value := false
	for i := range all {
		all[i] = pValue
		value = value || !syntax.IsError(res.At(i).Type())
	}
	return value && w.use(call, all) == Discarded
}

// neverEqual is the constant operand when cmp compares the
// interface-typed reply e with an integer constant of a type other than
// int64 (Comparison); nil when it does not.
func (w *walker) neverEqual(cmp *ast.BinaryExpr, e ast.Expr) ast.Expr {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil
	}
	other := cmp.Y
	if ast.Unparen(cmp.Y) == e || cmp.Y == e {
		other = cmp.X
	}
	if t := w.x.TypesInfo.TypeOf(e); t == nil || !types.IsInterface(t) {
		return nil
	}
	tv, ok := w.x.TypesInfo.Types[other]
	if !ok || tv.Value == nil {
		return nil
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 || types.Identical(tv.Type, types.Typ[types.Int64]) {
		return nil
	}
	return other
}

// read is what reading one value means.
func (w *walker) read(p part) Use {
	switch p {
	case pValue:
		return Examined
	case pError:
		if w.errIsReply {
			return Examined
		}
		return ErrorOnly
	case pObject:
		return Unseen
	}
	return Discarded
}

func (w *walker) readAll(parts []part) Use {
	u := Discarded
	for _, p := range parts {
		u = max(u, w.read(p))
	}
	return u
}

// target classifies a value assigned to lhs.
func (w *walker) target(lhs ast.Expr, p part) Use {
	if p == pNone {
		return Discarded
	}
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return w.read(p) // stored in a field, a map, through a pointer
	}
	if id.Name == "_" {
		return Discarded
	}
	obj := w.x.TypesInfo.Defs[id]
	if obj == nil {
		obj = w.x.TypesInfo.Uses[id]
	}
	if obj == nil {
		return Unseen
	}
	if syntax.IsPkgLevel(obj) || w.x.IsResult(obj) {
		return w.read(p) // a package variable, or a named result a bare return hands back
	}
	return w.varUse(obj, p)
}

// varUse combines the uses of a variable holding a value.
func (w *walker) varUse(obj types.Object, p part) Use {
	if w.seen[obj] {
		return Discarded
	}
	w.seen[obj] = true
	u := Discarded
	for _, id := range w.x.Uses(obj) {
		if w.exclude[id] || w.isWrite(id) {
			continue
		}
		u = max(u, w.use(id, []part{p}))
	}
	return u
}

// isWrite reports whether an identifier is only written where it occurs.
func (w *walker) isWrite(id *ast.Ident) bool {
	switch p := w.x.Parent(id).(type) {
	case *ast.AssignStmt:
		return (p.Tok == token.ASSIGN || p.Tok == token.DEFINE) && contains(p.Lhs, id)
	case *ast.RangeStmt:
		return p.Key == id || p.Value == id
	}
	return false
}

// receiver classifies a radix reply through the action's receiver: nil
// discards it, &v is as examined as v is.
func (w *walker) receiver(op *resolve.Op) Use { return w.receiverOf(op.Expr) }

// receiverOf classifies the receiver of a radix action expression.
func (w *walker) receiverOf(e ast.Expr) Use {
	action, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(action.Args) == 0 {
		return Unseen
	}
	rcv := ast.Unparen(action.Args[0])
	if syntax.IsNil(w.x.TypesInfo, rcv) {
		return Discarded
	}
	u, ok := rcv.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return Unseen
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return Unseen
	}
	obj := w.x.TypesInfo.Uses[id]
	if obj == nil || syntax.IsPkgLevel(obj) {
		return Unseen
	}
	w.exclude[id] = true
	return w.varUse(obj, pValue)
}

func contains(list []ast.Expr, e ast.Expr) bool {
	for _, x := range list {
		if ast.Unparen(x) == e || x == e {
			return true
		}
	}
	return false
}

// assigned follows a value assigned (x, err := e; var x = e) to the
// variables that receive its parts.
func (w *walker) assigned(lhs, rhs []ast.Expr, e ast.Expr, parts []part) Use {
	if len(rhs) == 1 && len(lhs) == len(parts) && len(parts) > 1 {
		u := Discarded
		for i, l := range lhs {
			u = max(u, w.target(l, parts[i]))
		}
		return u
	}
	if len(lhs) == len(rhs) && len(parts) == 1 {
		for i, r := range rhs {
			if r == e {
				return w.target(lhs[i], parts[0])
			}
		}
	}
	return Unseen
}
