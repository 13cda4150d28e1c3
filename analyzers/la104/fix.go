package la104

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/lockaudit/lockaudit/analyzers/internal/fix"
	"github.com/lockaudit/lockaudit/analyzers/internal/resolve"
)

// leaseFix gives a SET IFEQ extend without a TTL (or with KEEPTTL) the lease
// of the lock's acquire. See the package doc for the conditions.
func leaseFix(c *fix.Ctx, op *resolve.Op) []analysis.SuggestedFix {
	if !op.Complete || op.Call == nil {
		return nil
	}
	lease, at, ok := acquireLease(c, op)
	if !ok {
		return nil
	}
	msg := "extend by the acquire's lease (" + c.Text(lease.Expr) + ", as at " + c.In.At(at) + ")"
	switch op.Client.API {
	case resolve.APIGoRedis:
		switch fix.MethodName(op.Call) {
		case "SetIFEQ", "SetIFEQGet":
			return fix.One(msg, helperTTL(c, op, lease)...)
		case "SetArgs":
			return fix.One(msg, setArgsTTL(c, op, lease)...)
		case "Do":
			return fix.One(msg, rawTTL(c, op, lease)...)
		}
	case resolve.APIRaw:
		return fix.One(msg, rawTTL(c, op, lease)...)
	case resolve.APIBuilder:
		return fix.One(msg, builderTTL(c, op, lease)...)
	}
	return nil
}

// acquireLease returns the lease every acquire of op's key sets, when they
// all set the same one.
func acquireLease(c *fix.Ctx, op *resolve.Op) (fix.Lease, token.Pos, bool) {
	acqs := c.Acquires(op)
	if len(acqs) == 0 {
		return fix.Lease{}, 0, false
	}
	var first fix.Lease
	for i, a := range acqs {
		l, ok := c.LeaseOf(a)
		if !ok || (i > 0 && !l.Same(first)) {
			return fix.Lease{}, 0, false
		}
		if i == 0 {
			first = l
		}
	}
	return first, acqs[len(acqs)-1].Pos, true
}

// helperTTL: go-redis SetIFEQ(ctx, k, v, m, 0 | redis.KeepTTL) takes the
// acquire's duration as its expiration.
func helperTTL(c *fix.Ctx, op *resolve.Op, l fix.Lease) []analysis.TextEdit {
	if l.Unit != fix.Duration {
		return nil
	}
	return c.ReplaceLastArg(op.Call, l.Expr)
}

// setArgsTTL: go-redis SetArgs{Mode: "IFEQ", ...} gets TTL: d (replacing
// KeepTTL: true, or a TTL that is zero).
func setArgsTTL(c *fix.Ctx, op *resolve.Op, l fix.Lease) []analysis.TextEdit {
	if l.Unit != fix.Duration || len(op.Call.Args) == 0 {
		return nil
	}
	return c.SetArgsTTL(op.Call.Args[len(op.Call.Args)-1], l.Expr, op.TTL == resolve.KeepTTL)
}

// rawTTL: a raw SET ... IFEQ m (go-redis Do, redigo Do) gets the acquire's
// expiry arguments as it wrote them ("PX", ms), appended, or in place of
// KEEPTTL.
func rawTTL(c *fix.Ctx, op *resolve.Op, l fix.Lease) []analysis.TextEdit {
	name, ok := c.RawName(op)
	if !ok {
		return nil
	}
	args := op.Call.Args
	upper := c.IsUpper(args[name])
	switch op.TTL {
	case resolve.KeepTTL:
		for _, a := range args[name+1:] {
			if c.Word(a) == "KEEPTTL" {
				if !c.Copyable(l.Expr, a.Pos()) {
					return nil
				}
				return []analysis.TextEdit{fix.ReplaceNode(a, c.Raw(l, upper))}
			}
		}
	case resolve.NoTTL:
		last := args[len(args)-1]
		if !c.Copyable(l.Expr, last.End()) {
			return nil
		}
		return []analysis.TextEdit{fix.Insert(last.End(), ", "+c.Raw(l, upper))}
	}
	return nil
}

// builderTTL: a valkey-go/rueidis chain ...Ifeq(m).Build() gets the
// acquire's expiry step before Build (or in place of Keepttl()).
func builderTTL(c *fix.Ctx, op *resolve.Op, l fix.Lease) []analysis.TextEdit {
	chain := fix.Chain(op.Expr)
	if len(chain) == 0 || fix.MethodName(chain[len(chain)-1]) != "Build" {
		return nil
	}
	step := l.BuilderStep()
	switch op.TTL {
	case resolve.KeepTTL:
		for i, call := range chain[:len(chain)-1] {
			if fix.MethodName(call) != "Keepttl" {
				continue
			}
			recv := fix.Receiver(call)
			return c.StepEdit(recv, call.End(), fix.MethodName(chain[i+1]), step, l.Expr)
		}
	case resolve.NoTTL:
		return c.InsertStep(chain[len(chain)-1], step, l.Expr)
	}
	return nil
}
