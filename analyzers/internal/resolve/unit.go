package resolve

import (
	"go/ast"
	"go/types"

	"github.com/lockaudit/lockaudit/analyzers/internal/syntax"
)

// NanosTTL returns the argument a lock step's relative TTL is read from
// when it is a time.Duration the client sends as its count of nanoseconds
// (Client.DurationNanos), and the option or command that reads it (EX,
// PX, SETEX, PSETEX, EXPIRE, PEXPIRE): a raw SET's EX/PX amount, a raw
// EXPIRE's seconds, or the ARGV a script uses as the amount (lua.Detail.TTL).
// The server then holds the key a billion (EX) or a million (PX) times
// longer than meant. Nil when the TTL is no such argument: a typed helper's
// duration (SetNX(ctx, k, v, d), SetArgs{TTL: d}) is converted by the
// client; a wrapper's own argument is judged in the wrapper.
func (o *Op) NanosTTL(info *types.Info) (ast.Expr, string) {
	if o.Kind != Command || o.Client == nil || !o.Client.DurationNanos {
		return nil, ""
	}
	if o.Script != nil {
		d := o.Script.Detail
		if d.TTL == 0 || d.TTL > len(o.argv) || !o.Passes(PassedArgv) {
			return nil, ""
		}
		if e := o.argv[d.TTL-1]; syntax.IsDuration(info.TypeOf(e)) {
			return e, d.TTLUnit
		}
		return nil, ""
	}
	switch o.TTLUnit {
	case "EX", "PX", "SETEX", "PSETEX", "EXPIRE", "PEXPIRE":
		if o.Via == nil && syntax.IsDuration(info.TypeOf(o.TTLExpr)) {
			return o.TTLExpr, o.TTLUnit
		}
	}
	return nil, ""
}
