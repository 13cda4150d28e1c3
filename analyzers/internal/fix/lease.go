package fix

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// Unit says what the number of a lease counts.
type Unit int

const (
	Duration Unit = iota + 1 // a time.Duration (go-redis helpers, valkey-go Px/Ex)
	Seconds                  // an integer number of seconds (EX n, ExSeconds)
	Millis                   // an integer number of milliseconds (PX n, PxMilliseconds)
)

// Lease is the relative expiry an acquire sets, as the code wrote it.
// Absolute expiries (EXAT, PXAT, ExpireAt) are never leases: copied to an
// extend they would not extend anything.
type Lease struct {
	Unit Unit
	Expr ast.Expr // the amount
	Word ast.Expr // raw forms: the keyword as written ("PX"); nil otherwise
	Step string   // valkey-go/rueidis builders: the step (Px, Ex, PxMilliseconds, ExSeconds)
}

// LeaseOf returns the lease an acquire sets.
func (c *Ctx) LeaseOf(acq *resolve.Op) (Lease, bool) {
	if acq == nil || !acq.Complete || acq.TTL != resolve.Expire || acq.TTLExpr == nil {
		return Lease{}, false
	}
	e := acq.TTLExpr
	// A builder step holding the amount.
	if step := c.stepWithArg(acq.Expr, e); step != "" {
		switch step {
		case "Px", "Ex":
			return Lease{Unit: Duration, Expr: e, Step: step}, true
		case "PxMilliseconds":
			return Lease{Unit: Millis, Expr: e, Step: step}, true
		case "ExSeconds":
			return Lease{Unit: Seconds, Expr: e, Step: step}, true
		}
		return Lease{}, false
	}
	// A raw keyword before the amount.
	for i, a := range acq.Args {
		if a != e || i == 0 {
			continue
		}
		switch c.Word(acq.Args[i-1]) {
		case "EX":
			return Lease{Unit: Seconds, Expr: e, Word: acq.Args[i-1]}, true
		case "PX":
			return Lease{Unit: Millis, Expr: e, Word: acq.Args[i-1]}, true
		case "EXAT", "PXAT":
			return Lease{}, false
		}
	}
	// A typed helper's duration.
	if syntax.IsDuration(c.Pass.TypesInfo.TypeOf(e)) {
		return Lease{Unit: Duration, Expr: e}, true
	}
	return Lease{}, false
}

// Same reports whether two leases are written the same way.
func (l Lease) Same(m Lease) bool {
	return l.Unit == m.Unit && types.ExprString(l.Expr) == types.ExprString(m.Expr) && l.Step == m.Step
}

// stepWithArg returns the name of the builder step in chain whose argument
// is e.
func (c *Ctx) stepWithArg(chain ast.Expr, e ast.Expr) string {
	for _, call := range Chain(chain) {
		for _, a := range call.Args {
			if a == e {
				return MethodName(call)
			}
		}
	}
	return ""
}

// Chain lists the method calls of a call chain (a.B().C(x).D()), first to
// last.
func Chain(e ast.Expr) []*ast.CallExpr {
	var out []*ast.CallExpr
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			break
		}
		out = append([]*ast.CallExpr{call}, out...)
		e = sel.X
	}
	return out
}

// Word returns the constant string value of e in upper case (a command
// word: "px" gives "PX"), or "".
func (c *Ctx) Word(e ast.Expr) string {
	tv, ok := c.Pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	return strings.ToUpper(constant.StringVal(tv.Value))
}

// Raw renders the lease as raw command arguments: the acquire's keyword and
// amount as written ("PX", ttlMs), or a duration as "PX", d.Milliseconds().
// upper says how to spell a keyword that was not written (the command's
// own case).
func (c *Ctx) Raw(l Lease, upper bool) string {
	switch l.Unit {
	case Seconds, Millis:
		w := Keyword("EX", upper)
		if l.Unit == Millis {
			w = Keyword("PX", upper)
		}
		if l.Word != nil {
			w = c.Text(l.Word)
		}
		return w + ", " + c.Text(l.Expr)
	}
	return Keyword("PX", upper) + ", " + c.Operand(l.Expr) + ".Milliseconds()"
}

// BuilderStep is the valkey-go/rueidis SET expiry step for the lease: the
// acquire's own step when it was a builder, else Px for a duration,
// ExSeconds or PxMilliseconds for a count.
func (l Lease) BuilderStep() string {
	if l.Step != "" {
		return l.Step
	}
	switch l.Unit {
	case Seconds:
		return "ExSeconds"
	case Millis:
		return "PxMilliseconds"
	}
	return "Px"
}

// InsertStep inserts .name(arg) into a builder chain just before its last
// step (Build); nil when it cannot (StepEdit).
func (c *Ctx) InsertStep(last *ast.CallExpr, name string, arg ast.Expr) []analysis.TextEdit {
	sel, ok := ast.Unparen(last.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	return c.StepEdit(sel.X, sel.X.End(), sel.Sel.Name, name, arg)
}

// StepEdit writes .name(arg) after the builder expression recv, replacing
// the text from recv's end to end (nothing, or the step it replaces), when
// the result compiles: recv's type has the method, arg fits its parameter,
// the method's result has the method next that the chain calls after it,
// and arg can be written there (Copyable). It returns nil otherwise.
func (c *Ctx) StepEdit(recv ast.Expr, end token.Pos, next, name string, arg ast.Expr) []analysis.TextEdit {
	m := HasMethod(c.Pass.TypesInfo.TypeOf(recv), name)
	if m == nil || m.Signature().Params().Len() != 1 || m.Signature().Variadic() || !c.Fits(arg, Param(m, 0)) {
		return nil
	}
	if HasMethod(Result1(m), next) == nil || !c.Copyable(arg, recv.End()) {
		return nil
	}
	return []analysis.TextEdit{Replace(recv.End(), end, "."+name+"("+c.Text(arg)+")")}
}
