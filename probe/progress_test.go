package probe_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/servertest"
)

// TestProgressHook: Options.Progress hears of every node once it is read,
// with the count of nodes found so far, one call at a time.
func TestProgressHook(t *testing.T) {
	n := servertest.StartReplication(t, servertest.Node{}, servertest.Node{Of: 0}, servertest.Node{Of: 1})
	var mu sync.Mutex
	var calls [][2]int
	var inCall atomic.Int32
	_, err := probe.Run(servertest.Loopback(t), probe.Options{Addrs: []string{n[2].Addr}, Progress: func(probed, found int) {
		if inCall.Add(1) != 1 {
			t.Error("Progress called concurrently")
		}
		defer inCall.Add(-1)
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, [2]int{probed, found})
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3 (one per node): %v", len(calls), calls)
	}
	for i, c := range calls {
		if c[0] != i+1 || c[1] < c[0] || c[1] > 3 {
			t.Errorf("call %d: probed %d of %d", i, c[0], c[1])
		}
	}
	if last := calls[2]; last != [2]int{3, 3} {
		t.Errorf("last call %v, want [3 3]", last)
	}
}
