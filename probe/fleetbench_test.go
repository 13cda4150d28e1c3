package probe

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/internal/stats"
	"github.com/lockaudit/lockaudit/probe/servertest"
)

var (
	fleetRounds  = flag.Int("fleet-rounds", 21, "rounds of BenchmarkFleetProbe (each runs the three commands once)")
	fleetShards  = flag.Int("fleet-shards", 20, "BenchmarkFleetProbe: shards of the cluster (each a primary and one replica)")
	fleetTimeBin = flag.String("time-bin", "/usr/bin/time", "GNU time, which measures each command's peak RSS")
)

// BenchmarkFleetProbe is .ci/bench-probe: a real Valkey 9.1 cluster of 40
// nodes (20 primaries, 20 replicas) and one standalone node on loopback,
// and three commands run as the processes users run, alternating (the
// order rotates each round): `lockaudit probe` of the cluster, `lockaudit
// probe` of the standalone node, and `valkey-cli --cluster check` of the
// cluster; `lockaudit version` runs in the rotation too, as the start-up
// every lockaudit command pays. It prints the median wall times, the
// medians of the per-round ratios cluster/one-node (target <= 2.0) and
// cluster/valkey-cli (target <= 1.0), each command's CPU time and the
// servers' (what the command cost the servers it read, from /proc), and
// each command's peak RSS. It asserts no time.
//
// Peak RSS is measured in one more run of each command under GNU time
// (whose fork starts the command small: a child forked by this process
// would count this process's memory too), outside the timed rounds.
//
//	.ci/bench-probe [ROUNDS]
func BenchmarkFleetProbe(b *testing.B) {
	servertest.Require(b, servertest.Valkey91)
	bin := buildLockaudit(b)
	in, _ := servertest.Lookup(servertest.Valkey91)

	start := time.Now()
	cluster := servertest.StartCluster(b, shards(*fleetShards, 1, nil)...)
	one := servertest.Start(b, servertest.Config{})
	fmt.Printf("fleet: a %d-node Valkey %s cluster (%d primaries, %d replicas) and one standalone node, started in %s\n",
		len(cluster.Nodes), in.Version, *fleetShards, *fleetShards, time.Since(start).Round(time.Second))
	seed := cluster.Nodes[0].Addr

	type side struct {
		name string
		cmd  func() *exec.Cmd
		ok   func(out []byte) error
	}
	nodes := func(want int) func([]byte) error {
		return func(out []byte) error {
			if n := strings.Count(string(out), `"addr":`); n < want {
				return fmt.Errorf("%d nodes in the report, want %d", n, want)
			}
			return nil
		}
	}
	sides := []side{
		{"lockaudit probe, cluster", func() *exec.Cmd { return exec.Command(bin, "probe", "-format", "json", seed) }, nodes(len(cluster.Nodes))},
		{"lockaudit probe, one node", func() *exec.Cmd { return exec.Command(bin, "probe", "-format", "json", one.Addr) }, nodes(1)},
		{"valkey-cli --cluster check", func() *exec.Cmd { return in.CLICommand("--cluster", "check", seed) }, func(out []byte) error {
			if !bytes.Contains(out, []byte("[OK] All 16384 slots covered")) {
				return fmt.Errorf("not a healthy cluster check")
			}
			return nil
		}},
		{"lockaudit version", func() *exec.Cmd { return exec.Command(bin, "version") }, func([]byte) error { return nil }},
	}
	// The servers each command reads, for their CPU time.
	var clusterPids []int
	for _, n := range cluster.Nodes {
		clusterPids = append(clusterPids, n.Pid())
	}
	serversOf := [][]int{clusterPids, {one.Pid()}, clusterPids, nil}
	runOne := func(s side, c *exec.Cmd) time.Duration {
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		t0 := time.Now()
		err := c.Run()
		wall := time.Since(t0)
		// lockaudit probe exits 3 on findings; a run that failed (1), a
		// usage error (2) or a node left unknown (4) breaks the benchmark.
		if code := c.ProcessState.ExitCode(); err != nil && code != 3 {
			b.Fatalf("%s: %v\n%s", s.name, err, tail(out.Bytes()))
		}
		if err := s.ok(out.Bytes()); err != nil {
			b.Fatalf("%s: %v\n%s", s.name, err, tail(out.Bytes()))
		}
		return wall
	}
	for _, s := range sides { // warm up: page cache, the servers' first connections
		runOne(s, s.cmd())
	}
	rss := make([]float64, len(sides))
	if _, err := os.Stat(*fleetTimeBin); err == nil {
		for j, s := range sides {
			c := s.cmd()
			file := filepath.Join(b.TempDir(), "rss")
			c.Args = append([]string{*fleetTimeBin, "-f", "%M", "-o", file}, c.Args...)
			c.Path = *fleetTimeBin
			runOne(s, c)
			data, _ := os.ReadFile(file)
			kib, err := strconv.ParseFloat(strings.TrimSpace(lastLine(string(data))), 64)
			if err != nil {
				b.Fatalf("%s: peak RSS from %s: %q", s.name, *fleetTimeBin, data)
			}
			rss[j] = kib / 1024
		}
	}

	for i := 0; i < b.N; i++ {
		walls := make([][]float64, len(sides))
		cpus := make([][]float64, len(sides))
		serverTicks := make([]int64, len(sides))
		var perOne, perCLI []float64
		for r := 0; r < *fleetRounds; r++ {
			w := make([]float64, len(sides))
			for k := range sides {
				j := (r + k) % len(sides)
				before := cpuTicks(serversOf[j])
				c := sides[j].cmd()
				w[j] = runOne(sides[j], c).Seconds() * 1e3
				serverTicks[j] += cpuTicks(serversOf[j]) - before
				walls[j] = append(walls[j], w[j])
				cpus[j] = append(cpus[j], (c.ProcessState.UserTime()+c.ProcessState.SystemTime()).Seconds()*1e3)
			}
			perOne = append(perOne, w[0]/w[1])
			perCLI = append(perCLI, w[0]/w[2])
		}
		fmt.Printf("%d rounds, order rotating; median wall and CPU time; the servers' CPU time, mean per run; peak RSS (one run under GNU time)\n", *fleetRounds)
		for j, s := range sides {
			fmt.Printf("  %-28s wall %6.1f ms (min %5.1f, max %6.1f)  CPU %5.1f ms  servers' CPU %5.1f ms  peak RSS %5.1f MiB\n", s.name,
				stats.Median(walls[j]), slices.Min(walls[j]), slices.Max(walls[j]), stats.Median(cpus[j]), float64(serverTicks[j])*10/float64(*fleetRounds), rss[j])
		}
		fmt.Printf("  cluster/one-node:   %.2f (target <= 2.0)\n", stats.Median(perOne))
		fmt.Printf("  cluster/valkey-cli: %.2f (target <= 1.0)\n", stats.Median(perCLI))
		fmt.Println("  (ratios: medians of the per-round ratios)")
		b.ReportMetric(stats.Median(perOne), "cluster/one-node")
		b.ReportMetric(stats.Median(perCLI), "cluster/valkey-cli")
		b.ReportMetric(rss[0], "cluster-peak-RSS-MiB")
	}
}

// cpuTicks is the user and system CPU time of the processes, in clock
// ticks (10 ms), from /proc; 0 where /proc is missing.
func cpuTicks(pids []int) int64 {
	var n int64
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces, in parentheses).
		f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			n += u + s
		}
	}
	return n
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
