package probe

import "github.com/lockaudit/lockaudit/probe/internal/framing"

// The probe's limits (docs/reliability.md lists them for users). A server,
// or anything that answers on its address, decides what the probe reads:
// these bound what one node can make it hold, and what a whole fleet can.
const (
	// MaxNodes is the most nodes one run probes. Past it discovery stops,
	// the run fails (exit 1) and says so, and memory stays flat however many
	// nodes a cluster announces.
	MaxNodes = 10_000

	// MaxReplyBulk is the largest bulk string one reply may carry (INFO
	// included: a real INFO is a few kilobytes).
	MaxReplyBulk = 8 << 20
	// MaxReplyLine is the longest line: a simple string or error, a number,
	// a header.
	MaxReplyLine = 64 << 10
	// MaxReplyAggregate is the most elements one array, set or map may
	// declare (a map's pairs count twice).
	MaxReplyAggregate = 100_000
	// MaxReplyDepth is the deepest nesting of aggregates.
	MaxReplyDepth = 32
	// MaxNodeElements is the most elements all the replies of one node may
	// declare together.
	MaxNodeElements = 1 << 19
	// MaxNodeBytes is the most bytes one node may send (a bulk counts in
	// full as soon as its header arrives).
	MaxNodeBytes = 16 << 20
)

// replyLimits are the framing checker's limits on every connection of a
// probe (one per node).
var replyLimits = framing.Limits{
	MaxBulk:      MaxReplyBulk,
	MaxLine:      MaxReplyLine,
	MaxAggregate: MaxReplyAggregate,
	MaxDepth:     MaxReplyDepth,
	MaxElems:     MaxNodeElements,
	MaxTotal:     MaxNodeBytes,
}

// sessionLimits are the same for the long-lived connections of a Dialer
// (scan reads a whole keyspace on one): the element and byte budgets
// apply to each reply instead of to the connection.
var sessionLimits = func() framing.Limits {
	l := replyLimits
	l.PerReply = true
	return l
}()
