package probe

import "github.com/lockaudit/lockaudit/probe/internal/fakenode"

// A fake server is only for what a real one cannot do: send garbage,
// announce a hundred thousand members (probe/internal/fakenode).
type replyFunc = fakenode.Reply

const (
	helloReply = fakenode.Hello
	hangUp     = fakenode.HangUp
)

var (
	withHello = fakenode.WithHello
	startFake = fakenode.Start
	bulk      = fakenode.Bulk
	// fakeClusterOf answers like a cluster primary whose CLUSTER NODES
	// lists itself and the primaries at addrs.
	fakeClusterOf = fakenode.Cluster
)

// fakeClusterNode answers like a cluster primary whose CLUSTER NODES lists
// members: itself and members-1 others at loopback addresses where nothing
// listens.
func fakeClusterNode(members int) replyFunc { return fakeClusterOf(fakenode.Members(members)) }
