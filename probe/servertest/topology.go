package servertest

import (
	"context"
	"testing"

	"github.com/lockaudit/lockaudit/probe/localfleet"
)

// Node is one server of a replication set: its Config and the index (in
// the StartReplication arguments) of the node it replicates. The first node
// is the primary; its Of is ignored.
type Node = localfleet.Node

// StartReplication starts a primary and replicas (replicas of replicas
// when Of points at a replica), and waits until every replication link is up
// and every primary lists its replicas. It returns the servers in argument
// order.
func StartReplication(t testing.TB, nodes ...Node) []*Server {
	t.Helper()
	for _, n := range nodes {
		Require(t, n.Line())
	}
	ls, err := localfleet.StartReplication(context.Background(), tempDir(t), SettleTimeout, nodes...)
	if err != nil {
		t.Fatalf("servertest: %v", err)
	}
	return adoptAll(t, ls)
}

func adoptAll(t testing.TB, ls []*localfleet.Server) []*Server {
	out := make([]*Server, len(ls))
	for i, s := range ls {
		out[i] = adopt(t, s)
	}
	return out
}

// startAll starts servers concurrently (start-up is mostly waiting); extra
// gives each server's additional arguments.
func startAll(t testing.TB, cfgs []Config, extra func(i int) []string) []*Server {
	t.Helper()
	for _, c := range cfgs {
		Require(t, c.Line())
	}
	ls, err := localfleet.StartAll(context.Background(), tempDir(t), cfgs, extra)
	if err != nil {
		t.Fatalf("servertest: %v", err)
	}
	return adoptAll(t, ls)
}

// WaitReplicating waits until s replicates primary with its link up and the
// primary lists s as an online replica.
func (s *Server) WaitReplicating(t testing.TB, primary *Server) {
	t.Helper()
	if err := s.Server.WaitReplicating(context.Background(), primary.Server, SettleTimeout); err != nil {
		t.Fatalf("servertest: %v", err)
	}
}
