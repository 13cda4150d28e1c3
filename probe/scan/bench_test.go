package scan

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/conform"
	"github.com/lockaudit/lockaudit/probe/internal/fakenode"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/probe/servertest"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

// BenchmarkScan scans a node holding N keys (DEBUG POPULATE) with ten
// permanent locks among them, at several SCAN COUNTs, without a rate
// limit. It reports the keys scanned per second, the server's own cost
// (INFO commandstats and INFO cpu, before and after: CPU seconds per
// million keys, SCAN calls and microseconds per call) and the scanning
// process's peak heap, which must not grow with N.
//
//	go test ./probe/scan -run '^$' -bench Scan -benchtime 3x
func BenchmarkScan(b *testing.B) {
	for _, keys := range []int{100_000, 1_000_000} {
		s := servertest.Start(b, servertest.Config{Args: []string{"--enable-debug-command", "yes"}})
		s.Do(b, "DEBUG", "POPULATE", strconv.Itoa(keys), "key", "16")
		for i := range 10 {
			s.Do(b, "SET", fmt.Sprintf("lock:stuck:%d", i), "0123456789abcdef0123456789abcdef01234567")
		}
		for _, count := range []int{100, 1000, 10000} {
			b.Run(fmt.Sprintf("keys=%d/count=%d", keys, count), func(b *testing.B) {
				opt := options(b, s.Addr)
				opt.Count, opt.Rate = count, 0
				s.Do(b, "CONFIG", "RESETSTAT")
				cpu0 := serverCPU(b, s)
				peak := sampleHeap()
				b.ResetTimer()
				start := time.Now()
				for range b.N {
					run, err := Run(servertest.Loopback(b), opt)
					if err != nil {
						b.Fatal(err)
					}
					if len(run.Findings) != 10 || run.Scan.Shards[0].Keys < int64(keys) {
						b.Fatalf("found %d, scanned %d keys", len(run.Findings), run.Scan.Shards[0].Keys)
					}
				}
				elapsed := time.Since(start)
				b.StopTimer()
				heap := peak()
				cpu := serverCPU(b, s) - cpu0
				stats := s.Info(b, "commandstats")
				scanCalls, scanUsec := statField(stats["cmdstat_scan"], "calls"), statField(stats["cmdstat_scan"], "usec_per_call")
				total := float64(keys+10) * float64(b.N)
				b.ReportMetric(total/elapsed.Seconds(), "keys/s")
				b.ReportMetric(cpu/total*1e6, "server-cpu-s/Mkeys")
				b.ReportMetric(scanCalls/float64(b.N), "SCANs/op")
				b.ReportMetric(scanUsec, "us/SCAN")
				b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MiB")
				var lines []string
				for k, v := range stats {
					lines = append(lines, k+": "+v)
				}
				slices.Sort(lines)
				fmt.Fprintf(os.Stderr, "%s: INFO commandstats after %d scan(s) (reset before):\n  %s\n", b.Name(), b.N, strings.Join(lines, "\n  "))
			})
		}
	}
}

// serverCPU is the server's used_cpu_sys + used_cpu_user, in seconds.
func serverCPU(b *testing.B, s *servertest.Server) float64 {
	info := s.Info(b, "cpu")
	sys, _ := strconv.ParseFloat(info["used_cpu_sys"], 64)
	user, _ := strconv.ParseFloat(info["used_cpu_user"], 64)
	return sys + user
}

// statField reads one field of a commandstats line ("calls=3,usec=...").
func statField(line, field string) float64 {
	for _, kv := range strings.Split(line, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == field {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

// sampleHeap samples the heap in use every millisecond until the returned
// function is called, which returns the peak.
func sampleHeap() func() uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

// BenchmarkScanMemory runs `lockaudit scan -format json` (the real binary,
// as users run it) over a Valkey 9.1 node holding 10,000 permanent lock
// keys whose names are 1 KiB long — every one a finding —, with the
// default -limit and with the largest, then over one holding 16 with
// names of 900 KiB, and reports the process's peak RSS (which must stay
// under 200 MiB) and the size of its report. With
// LOCKAUDIT_BASE_BIN set to another build (an older lockaudit), it runs
// that binary alike in the same run and reports the ratio.
//
// The peak RSS is GNU time's (/usr/bin/time -f %M): on Linux a child's
// own rusage includes its parent's memory at the time of exec, and this
// process holds the keys it wrote.
//
//	go test ./probe/scan -run '^$' -bench ScanMemory -benchtime 1x
func BenchmarkScanMemory(b *testing.B) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		b.Skip("GNU time is not installed (.ci/bench-probe installs it)")
	}
	bins := map[string]string{"lockaudit": buildLockaudit(b)}
	if base := os.Getenv("LOCKAUDIT_BASE_BIN"); base != "" {
		bins["base"] = base
	}
	for _, c := range []struct{ keys, size, limit int }{
		{10_000, 1 << 10, DefaultLimit}, {10_000, 1 << 10, MaxLimit}, {16, 900 << 10, DefaultLimit},
	} {
		s := servertest.Start(b, servertest.Config{})
		fill(b, s, c.keys, c.size)
		peaks := map[string]float64{}
		for _, name := range []string{"lockaudit", "base"} {
			bin, ok := bins[name]
			if !ok {
				continue
			}
			b.Run(fmt.Sprintf("keys=%d/name=%dKiB/limit=%d/bin=%s", c.keys, c.size>>10, c.limit, name), func(b *testing.B) {
				dir := b.TempDir()
				out, rss := filepath.Join(dir, "scan.json"), filepath.Join(dir, "rss")
				var peak float64
				for range b.N {
					cmd := exec.Command("/usr/bin/time", "-f", "%M", "-o", rss, bin, "scan", "-format", "json", "-o", out, "-rate", "0", "-limit", strconv.Itoa(c.limit), s.Addr)
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					err := cmd.Run()
					if code := cmd.ProcessState.ExitCode(); code != 3 {
						b.Fatalf("lockaudit scan: exit %d (%v), want 3\n%s", code, err, stderr.Bytes())
					}
					data, err := os.ReadFile(rss)
					kib, perr := strconv.ParseFloat(strings.TrimSpace(lastLine(string(data))), 64)
					if err != nil || perr != nil {
						b.Fatalf("GNU time's output %q: %v %v", data, err, perr)
					}
					peak = max(peak, kib/1024)
				}
				st, err := os.Stat(out)
				if err != nil {
					b.Fatal(err)
				}
				peaks[name] = peak
				b.ReportMetric(peak, "peak-RSS-MiB")
				b.ReportMetric(float64(st.Size())/(1<<20), "report-MiB")
			})
		}
		if peaks["base"] > 0 {
			fmt.Fprintf(os.Stderr, "%d keys of %d KiB names, -limit %d: peak RSS %.1f MiB against the base's %.1f MiB: ratio %.3f\n",
				c.keys, c.size>>10, c.limit, peaks["lockaudit"], peaks["base"], peaks["lockaudit"]/peaks["base"])
		}
		s.Stop(b)
	}
}

// lastLine is the last line of s (GNU time writes the figure last).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// fill writes n permanent lock keys with names of size bytes, pipelined.
func fill(b *testing.B, s *servertest.Server, n, size int) {
	b.Helper()
	c, err := net.Dial("tcp", s.Addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var cmds bytes.Buffer
	for i := range n {
		k := fmt.Sprintf("lock:%06d:", i)
		k += strings.Repeat("k", size-len(k))
		fmt.Fprintf(&cmds, "*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$5\r\ntoken\r\n", len(k), k)
	}
	if _, err := c.Write(cmds.Bytes()); err != nil {
		b.Fatal(err)
	}
	r := bufio.NewReader(c)
	for range n {
		if v, err := resp.Read(r); err != nil || v.Kind == resp.Err {
			b.Fatalf("SET: %v %v", v, err)
		}
	}
}

// buildLockaudit builds the lockaudit binary of this checkout.
func buildLockaudit(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "lockaudit")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/lockaudit")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build ./cmd/lockaudit: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkDeadlineAtNodeCap runs probe, scan and conform (in-process: the
// black-holed members need the test's dial function) against a cluster of
// MaxNodes nodes whose members never answer a connect, each with a
// -deadline, and reports how long each took past it, its JSON report
// written: the deadline holds within a second.
//
//	go test ./probe/scan -run '^$' -bench DeadlineAtNodeCap -benchtime 1x
func BenchmarkDeadlineAtNodeCap(b *testing.B) {
	addr := fakenode.Start(b, fakenode.WithHello(fakenode.Cluster(fakenode.Members(probe.MaxNodes-1))))
	const deadline = 5 * time.Second
	popt := probe.Options{Addrs: []string{addr}, Deadline: deadline}
	for _, c := range []struct {
		name string
		run  func(ctx context.Context) (*report.Run, error)
	}{
		{"probe", func(ctx context.Context) (*report.Run, error) { return probe.Run(ctx, popt) }},
		{"scan", func(ctx context.Context) (*report.Run, error) {
			opt := options(b, addr)
			opt.Probe.Timeout, opt.Deadline = 0, deadline
			return Run(ctx, opt)
		}},
		{"conform", func(ctx context.Context) (*report.Run, error) {
			return conform.Run(ctx, conform.Options{Probe: popt})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var past time.Duration
			peak := sampleHeap()
			for range b.N {
				ctx, _ := fakenode.BlackHoled(b)
				start := time.Now()
				run, err := c.run(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := render.Render(io.Discard, run, "json"); err != nil {
					b.Fatal(err)
				}
				past = max(past, time.Since(start)-deadline)
			}
			b.ReportMetric(past.Seconds(), "s-past-deadline")
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
		})
	}
}
