package localfleet

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
)

// TestFreePortsNeverRepeat: ports handed out concurrently are all distinct
// (servers started at the same moment must not share a port).
func TestFreePortsNeverRepeat(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				ps, err := freePorts(2)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, p := range ps {
					if seen[p] {
						t.Errorf("port %d handed out twice", p)
					}
					seen[p] = true
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 8*25*2 {
		t.Errorf("%d distinct ports, want %d", len(seen), 8*25*2)
	}
}

// TestPortTakenByAnotherServer: a server whose port another server already
// holds must not be taken for started because the other one answers; it
// fails to bind and Start's retry (errPortInUse) takes over.
func TestPortTakenByAnotherServer(t *testing.T) {
	in, err := Lookup(Valkey91)
	if err != nil {
		if os.Getenv("LOCKAUDIT_REQUIRE_SERVERS") == "1" {
			t.Fatalf("servers not installed (run .ci/install-servers): %v", err)
		}
		t.Skipf("servers not installed (run .ci/install-servers): %v", err)
	}
	root := t.TempDir()
	newDir := func() (string, error) { return os.MkdirTemp(root, "node-") }
	a, err := Start(context.Background(), newDir, Config{}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Kill()
	dir, _ := newDir()
	free, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tryStart(context.Background(), dir, in, Config{}, nil, "", []int{a.Port, free[0]})
	if err == nil {
		b.Kill()
		t.Fatalf("second server on %s reported started (pid %d; the port belongs to pid %d)", a.Addr, b.Pid(), a.Pid())
	}
	if !errors.Is(err, errPortInUse) {
		t.Errorf("error %v, want errPortInUse", err)
	}
}
