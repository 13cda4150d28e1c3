package fix

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// Acquires returns the acquires a fix at op may take its token or lease
// from: the SET NX/SETNX of the very same key (keys SameKey) sent before op
// in the same function when there is one, none when the same function
// acquires the key only after op, else every acquire of the same key shape
// in the package. A fix needs them all, to be sure they agree (two acquires writing different tokens
// leave no certain token to copy).
func (c *Ctx) Acquires(op *resolve.Op) []*resolve.Op {
	if op.Key() == nil {
		return nil
	}
	var local, later, shaped []*resolve.Op
	shape := c.In.ShapeOf(op.Key())
	for _, a := range c.In.Ops {
		if !a.IsAcquire() || a.Key() == nil {
			continue
		}
		if op.Func != nil && a.Func == op.Func && c.In.SameKey(a.Key(), op.Key()) {
			if a.Pos < op.Pos {
				local = append(local, a)
			} else {
				later = append(later, a)
			}
		}
		if shape.Same(c.In.ShapeOf(a.Key())) {
			shaped = append(shaped, a)
		}
	}
	switch {
	case len(local) > 0:
		return local
	case len(later) > 0:
		// The key is acquired after op in the same function (a DEL that
		// clears the way before acquiring): op does not act on that
		// acquire's lock, and no other acquire is certainly its.
		return nil
	}
	return shaped
}

// Token returns the token the acquires of op's key write, when it can be
// written again at pos: every acquire writes the same expression, which is
// visible at pos with the same meaning and stable (a variable given its
// value once, never a call that would draw a new token).
func (c *Ctx) Token(op *resolve.Op, at token.Pos) (ast.Expr, bool) {
	acqs := c.Acquires(op)
	if len(acqs) == 0 {
		return nil, false
	}
	var tok ast.Expr
	for _, a := range acqs {
		if !a.Complete || a.Value == nil {
			return nil, false
		}
		if tok != nil && types.ExprString(tok) != types.ExprString(a.Value) {
			return nil, false
		}
		if !c.Copyable(a.Value, at) || !c.Pure(a.Value) {
			return nil, false
		}
		tok = a.Value
	}
	return tok, true
}
