package probe

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/netguard"
	"github.com/lockaudit/lockaudit/probe/servertest"
)

// BenchmarkClusterProbe compares the probe's wall time with
// `valkey-cli --cluster check` on the same real clusters (10 and 30 nodes
// on loopback). Both run as the separate processes users run. To show the
// probe scales with the slowest node and not with the sum of nodes, three
// replicas of the 30-node cluster are announced through proxies that can
// delay every reply by slowDelay; "slow=N" turns the delay on for N of them.
//
//	.ci/install-servers
//	go test ./probe -run '^$' -bench BenchmarkClusterProbe -benchtime 10x
func BenchmarkClusterProbe(b *testing.B) {
	servertest.Require(b, servertest.Valkey91)
	bin := buildLockaudit(b)
	cli, _ := servertest.Lookup(servertest.Valkey91)

	small := servertest.StartCluster(b, shards(5, 1, nil)...)
	var proxies []*slowProxy
	wrap := func(shard, replica int) []string {
		if replica != 1 || shard >= 3 { // the second replica of shards 0-2
			return nil
		}
		p := newSlowProxy(b)
		proxies = append(proxies, p)
		return []string{"--cluster-announce-port", strconv.Itoa(p.port), "--cluster-announce-bus-port", "{busport}"}
	}
	big := servertest.StartCluster(b, shards(10, 2, wrap)...)
	for i, p := range proxies {
		p.target.Store(big.Shards[i][2].Addr)
	}

	const slowDelay = 50 * time.Millisecond
	run := func(name string, c *servertest.Cluster, slow int) {
		for i, p := range proxies {
			d := time.Duration(0)
			if c == big && i < slow {
				d = slowDelay
			}
			p.delay.Store(int64(d))
		}
		seed := c.Nodes[0].Addr
		b.Run(name+"/tool=lockaudit-probe", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, err := exec.Command(bin, "probe", "-format", "json", seed).CombinedOutput()
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 0) {
					b.Fatalf("lockaudit probe: %v\n%s", err, out)
				}
				if n := strings.Count(string(out), `"addr":`); n < len(c.Nodes) {
					b.Fatalf("lockaudit probe found %d nodes, want %d", n, len(c.Nodes))
				}
			}
		})
		b.Run(name+"/tool=valkey-cli-cluster-check", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out, err := cli.CLICommand("--cluster", "check", seed).CombinedOutput()
				if err != nil || !strings.Contains(string(out), "[OK] All 16384 slots covered") {
					b.Fatalf("valkey-cli --cluster check: %v\n%s", err, out)
				}
			}
		})
	}
	run("nodes=10/slow=0", small, 0)
	run("nodes=30/slow=0", big, 0)
	run("nodes=30/slow=1", big, 1)
	run("nodes=30/slow=3", big, 3)
}

// shards describes n shards of 1 primary and r replicas; extra gives a
// replica's additional arguments.
func shards(n, r int, extra func(shard, replica int) []string) []servertest.Shard {
	var out []servertest.Shard
	for i := 0; i < n; i++ {
		var reps []servertest.Config
		for j := 0; j < r; j++ {
			var args []string
			if extra != nil {
				args = extra(i, j)
			}
			reps = append(reps, servertest.Config{Args: args})
		}
		out = append(out, servertest.Shard{Replicas: reps})
	}
	return out
}

func buildLockaudit(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "lockaudit")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/lockaudit")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/lockaudit: %v\n%s", err, out)
	}
	return bin
}

// slowProxy forwards TCP to a server and delivers its replies delay late: a node on a slow link, which loopback cannot give. The server
// announces the proxy's port, so every client (the probe and valkey-cli
// alike) reaches it through the proxy.
type slowProxy struct {
	port   int
	target atomic.Value // string
	delay  atomic.Int64 // time.Duration
}

func newSlowProxy(b *testing.B) *slowProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	p := &slowProxy{port: l.Addr().(*net.TCPAddr).Port}
	var mu sync.Mutex
	var conns []net.Conn
	b.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			target, _ := p.target.Load().(string)
			if netguard.CheckLoopback(target) != nil {
				c.Close()
				continue
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, s)
			mu.Unlock()
			go func() { io.Copy(s, c); s.Close() }()
			go p.delayed(c, s)
		}
	}()
	return p
}

// delayed copies the server's replies to the client, each chunk delay after
// it arrived: one-way latency, not a bandwidth limit, so a reply split into
// several segments is not delayed several times.
func (p *slowProxy) delayed(c, s net.Conn) {
	type chunk struct {
		data []byte
		at   time.Time
	}
	ch := make(chan chunk, 1024)
	go func() {
		defer close(ch)
		for {
			buf := make([]byte, 64<<10)
			n, err := s.Read(buf)
			if n > 0 {
				ch <- chunk{buf[:n], time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	for k := range ch {
		time.Sleep(time.Until(k.at.Add(time.Duration(p.delay.Load()))))
		if _, err := c.Write(k.data); err != nil {
			break
		}
	}
	c.Close()
}

// BenchmarkPeakMemory runs `lockaudit probe` (the real binary, as users
// run it) against fake servers: each framing attack of issue 8, a node
// that answers normally (the baseline), and clusters that announce ever
// more members. It reports the probe process's peak RSS and, for the
// clusters, how long the run took past its -deadline. Every run must end
// with exit 1 or 4 and name the node. Peak memory stays flat: an attack
// costs what the baseline costs, and a cluster past MaxNodes what a
// small one does.
//
// On Linux a child's peak RSS (wait4) can include its parent's memory at
// the time of exec, so the fake servers run in a helper process
// (TestFakeServerProcess) and this process holds no reply or report: the
// figure is the probe's own.
//
//	go test ./probe -run '^$' -bench BenchmarkPeakMemory -benchtime 1x
func BenchmarkPeakMemory(b *testing.B) {
	bin := buildLockaudit(b)
	probe := func(b *testing.B, fake string, args ...string) (rssMiB float64, wall time.Duration) {
		addr := startFakeProcess(b, fake)
		report := filepath.Join(b.TempDir(), "run.json")
		for i := 0; i < b.N; i++ {
			// The report goes to a file, read back in pieces: this process
			// must stay small (see above).
			cmd := exec.Command(bin, append(append([]string{"probe", "-format", "json", "-o", report}, args...), addr)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			wall = time.Since(start)
			code := cmd.ProcessState.ExitCode()
			if code != 1 && code != 4 {
				b.Fatalf("lockaudit probe %s: exit %d (%v), want 1 or 4\n%s", addr, code, err, tail(stderr.Bytes()))
			}
			if !fileContains(b, report, `"`+addr+`"`) {
				b.Fatalf("lockaudit probe %s: the report does not name the node\n%s", addr, tail(stderr.Bytes()))
			}
			rssMiB = max(rssMiB, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)/1024)
		}
		b.ReportMetric(rssMiB, "peak-RSS-MiB")
		return rssMiB, wall
	}
	b.Run("attack=none", func(b *testing.B) { probe(b, "attack=none") })
	var names []string
	for name := range framingAttacks() { // names only: the attacks are made by the fake server process
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b.Run("attack="+name, func(b *testing.B) { probe(b, "attack="+name) })
	}
	for _, c := range []struct {
		members  int
		deadline time.Duration
	}{{1_000, 10 * time.Second}, {MaxNodes, 10 * time.Second}, {MaxNodes, time.Second}, {2 * MaxNodes, 10 * time.Second}, {100_000, 10 * time.Second}, {1_000_000, 10 * time.Second}} {
		b.Run(fmt.Sprintf("cluster-members=%d/deadline=%s", c.members, c.deadline), func(b *testing.B) {
			_, wall := probe(b, fmt.Sprintf("cluster=%d", c.members), "-timeout", "1s", "-deadline", c.deadline.String())
			b.ReportMetric(wall.Seconds(), "s-wall")
			b.ReportMetric(max(wall-c.deadline, 0).Seconds(), "s-past-deadline")
		})
	}
	// Members that accept and never answer: the deadline, not the
	// per-node timeout, ends the run.
	b.Run("cluster-silent-members=200/deadline=2s", func(b *testing.B) {
		const deadline = 2 * time.Second
		_, wall := probe(b, "silent=200", "-timeout", "30s", "-deadline", deadline.String())
		b.ReportMetric(wall.Seconds(), "s-wall")
		b.ReportMetric(max(wall-deadline, 0).Seconds(), "s-past-deadline")
	})
}

// startFakeProcess runs a fake server (see TestFakeServerProcess) in a
// process of its own and returns its address; it ends with the benchmark.
func startFakeProcess(b *testing.B, spec string) string {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFakeServerProcess$")
	cmd.Env = append(os.Environ(), "LOCKAUDIT_FAKE_SERVER="+spec)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	if err != nil || !ok {
		b.Fatalf("fake server %s: %q %v", spec, line, err)
	}
	return addr
}

// TestFakeServerProcess is BenchmarkPeakMemory's fake server process: with
// LOCKAUDIT_FAKE_SERVER set (attack=NAME, attack=none, cluster=MEMBERS or
// silent=MEMBERS: members that never answer)
// it serves on a loopback port, prints "ADDR host:port" and serves until
// its standard input closes. Otherwise it does nothing.
func TestFakeServerProcess(t *testing.T) {
	spec := os.Getenv("LOCKAUDIT_FAKE_SERVER")
	if spec == "" {
		t.Skip("the fake server process of BenchmarkPeakMemory")
	}
	var reply replyFunc
	switch kind, arg, _ := strings.Cut(spec, "="); {
	case kind == "cluster":
		members, _ := strconv.Atoi(arg)
		reply = fakeClusterNode(members)
	case kind == "silent":
		members, _ := strconv.Atoi(arg)
		var addrs []string
		for range members {
			addrs = append(addrs, silentListener(t))
		}
		reply = fakeClusterOf(addrs)
	case arg == "none":
		reply = func(cmd []string) []byte {
			if cmd[0] == "INFO" {
				return bulk("# Server\r\nvalkey_version:9.1.2\r\nserver_name:valkey\r\n")
			}
			return []byte("-ERR unknown command\r\n")
		}
	default:
		mk, ok := framingAttacks()[arg]
		if !ok {
			t.Fatalf("no attack %q", arg)
		}
		attack := mk()
		reply = func(cmd []string) []byte {
			if cmd[0] == "INFO" {
				return []byte(attack)
			}
			return []byte("-ERR unknown command\r\n")
		}
	}
	fmt.Printf("ADDR %s\n", startFake(t, withHello(reply)))
	io.Copy(io.Discard, os.Stdin)
}

// fileContains searches a file for s, a piece at a time.
func fileContains(b *testing.B, path, s string) bool {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	var carry []byte // the end of the last piece, for a match across pieces
	for {
		n, err := f.Read(buf)
		window := append(carry, buf[:n]...)
		if bytes.Contains(window, []byte(s)) {
			return true
		}
		if err != nil {
			return false
		}
		carry = append([]byte(nil), window[max(len(window)-len(s), 0):]...)
	}
}

func tail(out []byte) string {
	if len(out) > 2000 {
		out = out[len(out)-2000:]
	}
	return string(out)
}
