package probe

import (
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/internal/fakenode"
	"github.com/lockaudit/lockaudit/report"
)

// TestProbeAtTheNodeCap: a cluster of MaxNodes nodes whose members are
// all black-holed, and a deadline that ends the discovery while their
// probes are still being launched (a slow progress display makes sure of
// it). Every member the cluster named is in the report, not probed
// (unknown, exit 4), none was dialled twice, and no dial outlives the run.
func TestProbeAtTheNodeCap(t *testing.T) {
	addr := startFake(t, withHello(fakeClusterNode(MaxNodes-1)))
	ctx, holes := fakenode.BlackHoled(t)
	run, err := Run(ctx, Options{Addrs: []string{addr}, Timeout: 30 * time.Second, Deadline: 2 * time.Second,
		Progress: func(probed, found int) { time.Sleep(200 * time.Microsecond) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Nodes) != MaxNodes || len(run.Errors) != 0 {
		t.Errorf("%d nodes in the report, errors %+v; want every one of the %d the cluster named, no error", len(run.Nodes), run.Errors, MaxNodes)
	}
	wantVerdict(t, run, report.Unknown.String(), report.Unknown.String(), report.Unknown.String(), report.ExitUnknown)
	if again := holes.Redialled(); len(again) > 0 {
		t.Errorf("%d members dialled twice, e.g. %s", len(again), again[0])
	}
	holes.WantNoneWaiting(t)
}
