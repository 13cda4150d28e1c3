package scan

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/probe/servertest"
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
