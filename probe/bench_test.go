package probe

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
