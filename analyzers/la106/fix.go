package la106

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// expireFix folds a separate EXPIRE/PEXPIRE into the acquire: SET NX with
// EX/PX, and deletes the EXPIRE's statement. See the package doc for the
// conditions.
func expireFix(c *fix.Ctx, acq, exp *resolve.Op) []analysis.SuggestedFix {
	if acq.Call == nil || exp.Call == nil || acq.Tx != nil || exp.Tx != nil || !acq.Complete || !exp.Complete ||
		acq.Lit != exp.Lit || exp.TTLExpr == nil || !c.SameConn(acq, exp) {
		return nil
	}
	d := exp.TTLExpr
	if tv := c.Pass.TypesInfo.Types[d]; tv.Value != nil {
		if v, ok := constant.Int64Val(constant.ToInt(tv.Value)); !ok || v <= 0 {
			return nil // EXPIRE k 0 deletes the key: not a lease
		}
	}
	sAcq, list, i := c.Stmt(acq.Call)
	sExp, listE, j := c.Stmt(exp.Call)
	if sAcq == nil || sExp == nil || len(list) == 0 || len(listE) == 0 || &list[0] != &listE[0] || j <= i {
		return nil
	}
	if !expireAlone(c, exp) || !c.ReplyDiscardable(sExp, exp.Call) || !c.Quiet(list[i+1:j]) {
		return nil
	}
	del, ok := c.DeleteLines(sExp.Pos(), sExp.End())
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	switch ka, ke := form(c, acq), form(c, exp); {
	case ka != ke: // the amount's unit is the form's: a Duration, or a count
	case ka == typed:
		edits = goRedisLease(c, acq, d)
	case ka == raw:
		edits = rawLease(c, acq, exp, d, list, i)
	case ka == builder:
		edits = builderLease(c, acq, exp, d)
	}
	if len(edits) == 0 {
		return nil
	}
	return fix.One("set the lease in the acquire ("+c.Text(d)+") and drop the separate "+exp.Name, append(edits, del)...)
}

type spelling int

const (
	other   spelling = iota
	typed            // go-redis helpers: SetNX, SetArgs, Expire, PExpire (a time.Duration)
	raw              // Do("CMD", ...) on redigo or go-redis (a count)
	builder          // valkey-go/rueidis builder chains (an int64 count)
)

// form says how a command is spelled.
func form(c *fix.Ctx, op *resolve.Op) spelling {
	switch {
	case op.Client.API == resolve.APIBuilder:
		if op.Expr != nil {
			return builder
		}
	case op.Client.API == resolve.APIRaw || op.Client.API == resolve.APIGoRedis:
		if _, ok := c.RawName(op); ok {
			return raw
		}
		if op.Client.API == resolve.APIGoRedis {
			return typed
		}
	}
	return other
}

// expireAlone reports whether the EXPIRE is the plain form, with no NX/XX/
// GT/LT condition, in the spelling the acquire can take over: go-redis
// Expire/PExpire, raw EXPIRE/PEXPIRE key amount, or the builder chain
// B().Expire().Key(k).Seconds(n).Build() (Pexpire ... Milliseconds) written
// inside the Do call.
func expireAlone(c *fix.Ctx, exp *resolve.Op) bool {
	if exp.Name != "EXPIRE" && exp.Name != "PEXPIRE" {
		return false
	}
	switch {
	case exp.Client.API == resolve.APIGoRedis && fix.MethodName(exp.Call) != "Do":
		n := fix.MethodName(exp.Call)
		return (n == "Expire" || n == "PExpire") && len(exp.Call.Args) == 3
	case exp.Client.API == resolve.APIRaw || exp.Client.API == resolve.APIGoRedis:
		i, ok := c.RawName(exp)
		return ok && len(exp.Call.Args) == i+3
	case exp.Client.API == resolve.APIBuilder:
		if exp.Expr == nil || exp.Expr.Pos() < exp.Call.Pos() || exp.Expr.End() > exp.Call.End() {
			return false
		}
		want := []string{"B", "Expire", "Key", "Seconds", "Build"}
		if exp.Name == "PEXPIRE" {
			want = []string{"B", "Pexpire", "Key", "Milliseconds", "Build"}
		}
		chain := fix.Chain(exp.Expr)
		if len(chain) != len(want) {
			return false
		}
		for k, call := range chain {
			if fix.MethodName(call) != want[k] {
				return false
			}
		}
		return true
	}
	return false
}

// goRedisLease: SetNX(ctx, k, v, 0) takes the EXPIRE's duration;
// SetArgs{Mode: "NX"} gets TTL: d. The reply (*BoolCmd, *StatusCmd) keeps
// its meaning: SetNX with a TTL sends SET NX PX and still answers
// true/false.
func goRedisLease(c *fix.Ctx, acq *resolve.Op, d ast.Expr) []analysis.TextEdit {
	args := acq.Call.Args
	if acq.Call.Ellipsis.IsValid() || len(args) == 0 {
		return nil
	}
	last := args[len(args)-1]
	switch fix.MethodName(acq.Call) {
	case "SetNX":
		return c.ReplaceLastArg(acq.Call, d)
	case "SetArgs":
		if acq.Name != "SET" || !acq.NX || acq.TTL != resolve.NoTTL {
			return nil
		}
		return c.SetArgsTTL(last, d, false)
	}
	return nil
}

// rawLease: Do("SET", k, v, "NX") gets "EX", n (PEXPIRE: "PX", n) appended;
// Do("SETNX", k, v) becomes Do("SET", k, v, "NX", "EX", n). SETNX replies
// 1/0 and SET NX replies OK/nil, so the SETNX form is rewritten only when
// its reply is not read (the statement is the call, or `_, err :=` on
// redigo, where a nil reply is no error), or read in the one shape whose
// check can be rewritten to match (redigoIntCheck).
func rawLease(c *fix.Ctx, acq, exp *resolve.Op, d ast.Expr, list []ast.Stmt, i int) []analysis.TextEdit {
	ni, ok := c.RawName(acq)
	if !ok {
		return nil
	}
	args := acq.Call.Args
	last := args[len(args)-1]
	if !c.Copyable(d, last.End()) || !c.Pure(d) {
		return nil
	}
	upper := c.IsUpper(args[ni])
	kw := func(w string) string { return fix.Keyword(w, upper) }
	unit := kw("EX")
	if exp.Name == "PEXPIRE" {
		unit = kw("PX")
	}
	amount := unit + ", " + c.Text(d)
	switch {
	case acq.Name == "SET" && acq.NX && acq.TTL == resolve.NoTTL:
		return []analysis.TextEdit{fix.Insert(last.End(), ", "+amount)}
	case acq.Name == "SETNX":
		if len(args) != ni+3 {
			return nil
		}
		edits := []analysis.TextEdit{
			fix.ReplaceNode(args[ni], kw("SET")),
			fix.Insert(last.End(), ", "+kw("NX")+", "+amount),
		}
		switch s := list[i].(type) {
		case *ast.ExprStmt:
			if ast.Unparen(s.X) == acq.Call {
				return edits
			}
		case *ast.AssignStmt:
			// redigo `_, err := conn.Do(...)`: only the error is read.
			if acq.Client.API == resolve.APIRaw && len(s.Lhs) == 2 && len(s.Rhs) == 1 && ast.Unparen(s.Rhs[0]) == acq.Call {
				if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
					return edits
				}
			}
		}
		if acq.Client.API == resolve.APIRaw {
			if more := redigoIntCheck(c, acq, list, i); more != nil {
				return append(edits, more...)
			}
		}
	}
	return nil
}

// redigoIntCheck rewrites the usual check of a redigo SETNX reply,
//
//	n, err := redis.Int(conn.Do("SETNX", k, v))
//	if err != nil { ... }
//	if n == 0 { ...; return }      // or n != 1; n == 1 / n != 0 negated
//
// into the check of SET NX, whose nil reply redis.String turns into ErrNil:
//
//	n, err := redis.String(conn.Do("SET", k, v, "NX", "EX", secs))
//	if err != nil && err != redis.ErrNil { ... }
//	if n != "OK" { ...; return }
//
// The three statements must be adjacent, n declared there and read nowhere
// else, the busy branch must leave (so err, now ErrNil on that path, is
// never read after it) and must not read err.
func redigoIntCheck(c *fix.Ctx, acq *resolve.Op, list []ast.Stmt, i int) []analysis.TextEdit {
	info := c.Pass.TypesInfo
	if i+2 >= len(list) {
		return nil
	}
	s1, ok := list[i].(*ast.AssignStmt)
	if !ok || s1.Tok != token.DEFINE || len(s1.Lhs) != 2 || len(s1.Rhs) != 1 {
		return nil
	}
	wrap, ok := ast.Unparen(s1.Rhs[0]).(*ast.CallExpr)
	if !ok || len(wrap.Args) != 1 || ast.Unparen(wrap.Args[0]) != acq.Call {
		return nil
	}
	sel, ok := ast.Unparen(wrap.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	intFn, _ := info.Uses[sel.Sel].(*types.Func)
	if intFn == nil || intFn.Name() != "Int" || intFn.Pkg() == nil {
		return nil
	}
	strFn, _ := intFn.Pkg().Scope().Lookup("String").(*types.Func)
	errNil, _ := intFn.Pkg().Scope().Lookup("ErrNil").(*types.Var)
	if strFn == nil || errNil == nil || !types.Identical(strFn.Signature().Params(), intFn.Signature().Params()) {
		return nil
	}
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if _, isPkg := info.Uses[pkgID].(*types.PkgName); !isPkg {
		return nil
	}
	vID, ok1 := s1.Lhs[0].(*ast.Ident)
	eID, ok2 := s1.Lhs[1].(*ast.Ident)
	if !ok1 || !ok2 {
		return nil
	}
	vObj := info.Defs[vID]
	eObj := info.ObjectOf(eID)
	if vObj == nil || eObj == nil {
		return nil
	}
	s2, ok := list[i+1].(*ast.IfStmt)
	if !ok || s2.Init != nil || s2.Else != nil || !c.IsErrCheck(s2.Cond, eObj, token.NEQ) {
		return nil
	}
	s3, ok := list[i+2].(*ast.IfStmt)
	if !ok || s3.Init != nil || s3.Else != nil || !c.In.EndsBlock(s3.Body) || mentions(info, s3, eObj) {
		return nil
	}
	cmp, ok := ast.Unparen(s3.Cond).(*ast.BinaryExpr)
	if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
		return nil
	}
	var num ast.Expr
	switch {
	case isObj(info, cmp.X, vObj):
		num = cmp.Y
	case isObj(info, cmp.Y, vObj):
		num = cmp.X
	default:
		return nil
	}
	tv := info.Types[num]
	if tv.Value == nil {
		return nil
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || (n != 0 && n != 1) {
		return nil
	}
	// Every read of n is this comparison.
	for id, obj := range info.Uses {
		if obj == vObj && !(id.Pos() >= cmp.Pos() && id.End() <= cmp.End()) {
			return nil
		}
	}
	busy := (n == 0) == (cmp.Op == token.EQL) // the branch runs when the lock was not taken
	op := "=="
	if busy {
		op = "!="
	}
	return []analysis.TextEdit{
		fix.ReplaceNode(sel.Sel, "String"),
		fix.Insert(s2.Cond.End(), " && "+eID.Name+" != "+pkgID.Name+".ErrNil"),
		fix.ReplaceNode(s3.Cond, vID.Name+" "+op+` "OK"`),
	}
}

func isObj(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == obj
}

func mentions(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// builderLease: B().Set().Key(k).Value(v).Nx().Build() gets ExSeconds(n)
// (PEXPIRE: PxMilliseconds(n)) before Build. The reply is unchanged.
func builderLease(c *fix.Ctx, acq, exp *resolve.Op, d ast.Expr) []analysis.TextEdit {
	if acq.Name != "SET" || !acq.NX || acq.TTL != resolve.NoTTL {
		return nil
	}
	chain := fix.Chain(acq.Expr)
	if len(chain) == 0 || fix.MethodName(chain[len(chain)-1]) != "Build" {
		return nil
	}
	step := "ExSeconds"
	if exp.Name == "PEXPIRE" {
		step = "PxMilliseconds"
	}
	return c.InsertStep(chain[len(chain)-1], step, d)
}
