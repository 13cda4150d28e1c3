package probe

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/internal/stats"
	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// TestFakeFleetIsProbed: the simulated fleets read like real ones: every
// node of a cluster and of a hundred deployments is found and read, with
// no error, in one connection and two round trips, and judged (all 9.1.2:
// release and extend safe, Lua there).
func TestFakeFleetIsProbed(t *testing.T) {
	t.Run("cluster", func(t *testing.T) {
		f := newFakeCluster(t, 100)
		run := fakeRun(t, f, Options{Addrs: []string{"127.0.0.1:10000"}})
		wantFleetRead(t, run, 100, report.TopologyCluster)
		if _, _, dials := f.stats(); dials != 100 {
			t.Errorf("%d connections for 100 nodes, want one each", dials)
		}
		wantTwoRoundTrips(t, f, 100)
		// The handshake and the batch, nothing else: no CLIENT SETINFO or
		// TRACKING, and no PING as valkey-go closes its client (the probe
		// closes the socket first).
		sent := f.commandsAfterClose(t)
		for cmd := range sent {
			switch cmd {
			case "HELLO", "TIME", "INFO", "ROLE", "COMMAND", "CONFIG", "CLUSTER":
			default:
				t.Errorf("%s reached the fleet %d time(s); want only the handshake and the batch (all: %v)", cmd, sent[cmd], sent)
			}
		}
		if sent["HELLO"] != 100 {
			t.Errorf("%d HELLOs for 100 nodes, want one each", sent["HELLO"])
		}
	})
	t.Run("deployments", func(t *testing.T) {
		f, seeds := newFakeDeployments(t, 100, 2)
		run := fakeRun(t, f, Options{Addrs: seeds})
		wantFleetRead(t, run, 300, report.TopologyReplication)
		wantTwoRoundTrips(t, f, 300)
	})
}

// wantTwoRoundTrips: every node, seeds included, answered two round trips
// on its one connection: the handshake and the one batch of all its facts.
func wantTwoRoundTrips(t testing.TB, f *fakeFleet, nodes int) {
	t.Helper()
	if got := f.roundTrips(); len(got) != 1 || got[2] != nodes {
		t.Errorf("nodes by round trips answered: %v; want all %d nodes at 2 (handshake, batch)", got, nodes)
	}
}

func fakeRun(t testing.TB, f *fakeFleet, opt Options) *report.Run {
	t.Helper()
	if opt.Deadline == 0 {
		opt.Deadline = 10 * time.Minute
	}
	if opt.Timeout == 0 {
		opt.Timeout = time.Minute
	}
	run, err := Run(netguard.With(context.Background(), f.dial), opt)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func wantFleetRead(t testing.TB, run *report.Run, nodes int, topology string) {
	t.Helper()
	if len(run.Nodes) != nodes || run.Topology != topology || len(run.Errors) > 0 {
		t.Fatalf("%d nodes, topology %s, errors %v; want %d nodes, %s, no error", len(run.Nodes), run.Topology, run.Errors, nodes, topology)
	}
	for _, n := range run.Nodes {
		if len(n.Errors) > 0 || n.Version != "9.1.2" || n.DELIFEQ != report.Yes {
			t.Fatalf("node %+v: want every fact read", n)
		}
	}
	if v := run.Verdict; v.Summary() != "release safe, extend safe, lua available" {
		t.Errorf("verdict %s", v.Summary())
	}
}

// TestParallelBoundsConnections: -parallel bounds the connections open at
// once, counted where they arrive (the simulated fleet). The fleet holds
// every connection but the seed's until -parallel of them are open, so the
// bound is reached, and never passed.
func TestParallelBoundsConnections(t *testing.T) {
	for _, parallel := range []int{1, 5, 16} {
		t.Run(strconv.Itoa(parallel), func(t *testing.T) {
			f := newFakeCluster(t, 64)
			f.gate, f.gateAt = make(chan struct{}), parallel
			run := fakeRun(t, f, Options{Addrs: []string{"127.0.0.1:10000"}, Parallel: parallel})
			wantFleetRead(t, run, 64, report.TopologyCluster)
			open, maxOpen, dials := f.stats()
			if maxOpen != parallel || open != 0 || dials != 64 {
				t.Errorf("-parallel %d: at most %d connections open at once, %d left open, %d dialled; want %d, 0, 64", parallel, maxOpen, open, dials, parallel)
			}
		})
	}
}

var scaleRounds = flag.Int("scale-rounds", 3, "BenchmarkScale: runs of each fleet (the median is printed)")

// BenchmarkScale probes simulated fleets (fakeFleet: recorded 9.1.2
// replies, in-memory connections) of 10, 100, 1,000 and 10,000 cluster
// nodes, the 1,000-node cluster with one node whose every answer is 200 ms
// late, and 100 deployments of a primary and two replicas given as 100
// seeds. Each run is Run (collect, evaluate, verdict) and the JSON report,
// in a process of its own, whose peak RSS (VmHWM) is read at its end and
// once the fleet is built (the simulated servers' share). It prints the
// median wall time, the time per node, and both memory figures; it asserts
// no time.
//
//	go test ./probe -run '^$' -bench BenchmarkScale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	cases := []string{"cluster=10", "cluster=100", "cluster=1000", "cluster=10000", "cluster=1000,slow=200ms", "deployments=100"}
	for i := 0; i < b.N; i++ {
		fmt.Printf("scale (simulated Valkey 9.1.2 nodes, -parallel %d, GOMAXPROCS %d): median of %d runs\n", DefaultParallel, runtime.GOMAXPROCS(0), *scaleRounds)
		fmt.Printf("  %-26s %7s %10s %10s %12s %12s %14s\n", "fleet", "nodes", "wall", "per node", "peak RSS", "fleet alone", "probe per node")
		for _, c := range cases {
			var walls, peaks, bases []float64
			var nodes int
			for range *scaleRounds {
				r := runScaleChild(b, c)
				walls, peaks, bases, nodes = append(walls, r.Wall), append(peaks, r.PeakMiB), append(bases, r.BaseMiB), r.Nodes
			}
			wall, peak, base := stats.Median(walls), stats.Median(peaks), stats.Median(bases)
			fmt.Printf("  %-26s %7d %8.0f ms %7.1f µs %8.1f MiB %8.1f MiB %11.1f KiB\n", c, nodes, wall*1e3, wall*1e6/float64(nodes), peak, base, (peak-base)*1024/float64(nodes))
		}
	}
}

type scaleResult struct {
	Nodes            int
	Wall             float64 // seconds
	PeakMiB, BaseMiB float64
}

func runScaleChild(b *testing.B, spec string) scaleResult {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestScaleChild$")
	cmd.Env = append(os.Environ(), "LOCKAUDIT_SCALE="+spec)
	out, err := cmd.CombinedOutput()
	i := strings.LastIndex(string(out), "SCALE ")
	if err != nil || i < 0 {
		b.Fatalf("%s: %v\n%s", spec, err, tail(out))
	}
	var r scaleResult
	if err := json.Unmarshal([]byte(strings.SplitN(string(out[i+6:]), "\n", 2)[0]), &r); err != nil {
		b.Fatalf("%s: %v\n%s", spec, err, tail(out))
	}
	return r
}

// TestScaleChild is one run of BenchmarkScale, in its own process
// (LOCKAUDIT_SCALE=cluster=N[,slow=D] or deployments=N); otherwise it
// does nothing.
func TestScaleChild(t *testing.T) {
	spec := os.Getenv("LOCKAUDIT_SCALE")
	if spec == "" {
		t.Skip("a run of BenchmarkScale")
	}
	var f *fakeFleet
	var seeds []string
	var nodes int
	topology := report.TopologyCluster
	for part := range strings.SplitSeq(spec, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "cluster":
			nodes, _ = strconv.Atoi(v)
			f, seeds = newFakeCluster(t, nodes), []string{"127.0.0.1:10000"}
		case "deployments":
			d, _ := strconv.Atoi(v)
			f, seeds = newFakeDeployments(t, d, 2)
			nodes, topology = 3*d, report.TopologyReplication
		case "slow":
			d, err := time.ParseDuration(v)
			if err != nil {
				t.Fatal(err)
			}
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range f.nodes {
					if !yield(k) {
						return
					}
				}
			})
			f.nodes[keys[len(keys)-1]].delay = d // a replica, found through the view
		default:
			t.Fatalf("bad LOCKAUDIT_SCALE %q", spec)
		}
	}
	runtime.GC()
	base := vmHWM(t)
	start := time.Now()
	run := fakeRun(t, f, Options{Addrs: seeds})
	if err := render.Render(io.Discard, run, "json"); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	wantFleetRead(t, run, nodes, topology)
	data, _ := json.Marshal(scaleResult{Nodes: nodes, Wall: wall.Seconds(), PeakMiB: vmHWM(t), BaseMiB: base})
	fmt.Printf("SCALE %s\n", data)
}

// vmHWM is this process's peak resident set, in MiB.
func vmHWM(t testing.TB) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: peak RSS is read on Linux only")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
