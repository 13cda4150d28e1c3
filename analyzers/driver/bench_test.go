package driver_test

// The vet benchmark (issue 2): lockaudit's analyzers against a no-op
// analyzer through the same driver over the same real packages, and
// `go vet -vettool=lockaudit` against plain `go vet`. Run it with
// .ci/bench-vet; it prints median ratios, never asserts a time.

import (
	"context"
	"flag"
	"fmt"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockaudit/lockaudit/analyzers"
	"github.com/lockaudit/lockaudit/analyzers/driver"
	"github.com/lockaudit/lockaudit/internal/stats"
)

var (
	rounds    = flag.Int("rounds", 9, "rounds of BenchmarkVetOverhead (each runs both sides once)")
	vetRounds = flag.Int("vet-rounds", 3, "rounds of BenchmarkGoVetTool (each runs go vet twice, about 2 minutes)")
)

// exampleDir is the bundled example module; it requires every client the
// benchmark loads, so the packages resolve with its go.sum.
const exampleDir = "../../testdata/example"

// noop walks every call expression and reports nothing: the baseline that
// pays what any analyzer pays (loading, type-checking, one AST walk).
var noop = &analysis.Analyzer{
	Name:     "noop",
	Doc:      "walks every call expression and reports nothing (benchmark baseline)",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		n := 0
		pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(ast.Node) { n++ })
		return nil, nil
	},
}

// benchModules are the real modules analysed besides the example: every
// package of each, from the module cache.
var benchModules = []string{
	"github.com/redis/go-redis/v9",
	"github.com/valkey-io/valkey-go",
	"github.com/gomodule/redigo",
	"github.com/go-redsync/redsync/v4",
}

// skipPackages cannot load anywhere: valkeycompat v1.0.79 is not on the
// module proxy, and go-redis's fuzz package is build-tagged out.
var skipPackages = map[string]bool{
	"github.com/go-redsync/redsync/v4/redis/valkeygo": true,
	"github.com/redis/go-redis/v9/fuzz":               true,
}

// benchPatterns lists the example's packages and every package of the
// benchmark modules (a "..." pattern would also walk modules that are in the
// build list but not downloadable).
func benchPatterns(tb testing.TB) []string {
	tb.Helper()
	pats := []string{"./..."}
	for _, mod := range benchModules {
		cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod)
		cmd.Dir = exampleDir
		out, err := cmd.Output()
		if err != nil {
			tb.Fatalf("go list -m %s: %v (run `go mod download` in testdata/example)", mod, err)
		}
		root := strings.TrimSpace(string(out))
		dirs := map[string]bool{}
		err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() && path != root && (name == "testdata" || strings.HasPrefix(name, "example") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
				dirs[filepath.Dir(path)] = true
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		for dir := range dirs {
			rel, _ := filepath.Rel(root, dir)
			p := mod
			if rel != "." {
				p += "/" + filepath.ToSlash(rel)
			}
			if !skipPackages[p] {
				pats = append(pats, p)
			}
		}
	}
	sort.Strings(pats[1:])
	return pats
}

// BenchmarkVetOverhead runs driver.Run over the benchmark packages with
// analyzers.All() and with the no-op analyzer, alternating (and swapping
// which goes first each round), and reports the median of the per-round
// time ratios, in wall time and in CPU time. Target: at most 1.15.
func BenchmarkVetOverhead(b *testing.B) {
	rule := analyzers.All()
	if len(rule) == 0 {
		b.Skip("analyzers.All() is empty: no rule analyzers registered yet")
	}
	pats := benchPatterns(b)
	type cost struct{ wall, cpu float64 } // seconds; cpu includes go list
	timeRun := func(as []*analysis.Analyzer) (cost, int) {
		runtime.GC()
		cpu0 := cpuSeconds()
		start := time.Now()
		r, err := driver.Run(context.Background(), driver.Options{Dir: exampleDir, Patterns: pats, Analyzers: as})
		c := cost{wall: time.Since(start).Seconds(), cpu: cpuSeconds() - cpu0}
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Errors) > 0 {
			b.Fatalf("the benchmark packages must load cleanly: %+v", r.Errors[0])
		}
		return c, len(r.Findings)
	}
	// Warm the build cache and the page cache for both sides.
	timeRun([]*analysis.Analyzer{noop})
	_, findings := timeRun(rule)

	for i := 0; i < b.N; i++ {
		var wall, cpu, wRule, wNoop []float64
		for r := 0; r < *rounds; r++ {
			var cr, cn cost
			if r%2 == 0 {
				cr, _ = timeRun(rule)
				cn, _ = timeRun([]*analysis.Analyzer{noop})
			} else {
				cn, _ = timeRun([]*analysis.Analyzer{noop})
				cr, _ = timeRun(rule)
			}
			wall = append(wall, cr.wall/cn.wall)
			cpu = append(cpu, cr.cpu/cn.cpu)
			wRule, wNoop = append(wRule, cr.wall), append(wNoop, cn.wall)
		}
		b.ReportMetric(stats.Median(wall), "ratio")
		b.ReportMetric(stats.Median(cpu), "cpu-ratio")
		fmt.Printf("vet overhead: %d packages (%d patterns), %d analyzers, %d findings, %d rounds\n", len(pats)-1+countExample(b), len(pats), len(rule), findings, *rounds)
		fmt.Printf("  wall: lockaudit analyzers median %.2fs, no-op analyzer median %.2fs\n", stats.Median(wRule), stats.Median(wNoop))
		fmt.Printf("  median ratio lockaudit/no-op: wall %.3f, CPU %.3f (target <= 1.15)\n", stats.Median(wall), stats.Median(cpu))
		fmt.Printf("  per round, wall: %s\n  per round, CPU:  %s\n", fmtRatios(wall), fmtRatios(cpu))
	}
}

// cpuSeconds is the user+system CPU time of this process and its waited-for
// children (go list): unlike wall time, it barely moves when other work
// shares the machine.
func cpuSeconds() float64 {
	var self, kids syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		panic(err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids); err != nil {
		panic(err)
	}
	sec := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
	return sec(self.Utime) + sec(self.Stime) + sec(kids.Utime) + sec(kids.Stime)
}

func countExample(tb testing.TB) int {
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = exampleDir
	out, err := cmd.Output()
	if err != nil {
		tb.Fatal(err)
	}
	return len(strings.Fields(string(out)))
}

func fmtRatios(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.3f", x))
	}
	return strings.Join(s, " ")
}

// BenchmarkGoVetTool compares `go vet -vettool=lockaudit` with plain
// `go vet` on the same packages. go vet caches its results, so every run
// gets a fresh copy of a build cache warmed by `go build` only: compiles
// hit the cache, vet runs for real.
func BenchmarkGoVetTool(b *testing.B) {
	pats := benchPatterns(b)
	work := b.TempDir()
	bin := filepath.Join(work, "lockaudit")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/lockaudit").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	seed := filepath.Join(work, "seed")
	goCmd := func(cache string, args ...string) *exec.Cmd {
		cmd := exec.Command("go", args...)
		cmd.Dir = exampleDir
		cmd.Env = append(os.Environ(), "GOCACHE="+cache)
		return cmd
	}
	if out, err := goCmd(seed, append([]string{"build"}, pats...)...).CombinedOutput(); err != nil {
		b.Fatalf("warming the build cache: %v\n%s", err, out)
	}
	// timeVet returns wall and CPU seconds (the go command and everything
	// it ran: compile-cache lookups, the vet tool per package).
	timeVet := func(tool string) (wall, cpu float64) {
		cache := filepath.Join(work, "run")
		os.RemoveAll(cache)
		if out, err := exec.Command("cp", "-a", seed, cache).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v %s", err, out)
		}
		args := []string{"vet"}
		if tool != "" {
			args = append(args, "-vettool="+tool)
		}
		cmd := goCmd(cache, append(args, pats...)...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall = time.Since(start).Seconds()
		if err != nil && !(tool != "" && strings.Contains(string(out), ": LA1")) {
			b.Fatalf("go vet %v: %v\n%s", args, err, out)
		}
		cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		return wall, cpu
	}
	for i := 0; i < b.N; i++ {
		var wall, cpu, tTool, tPlain []float64
		for r := 0; r < *vetRounds; r++ {
			var wt, ct, wp, cp float64
			if r%2 == 0 {
				wt, ct = timeVet(bin)
				wp, cp = timeVet("")
			} else {
				wp, cp = timeVet("")
				wt, ct = timeVet(bin)
			}
			wall, cpu = append(wall, wt/wp), append(cpu, ct/cp)
			tTool, tPlain = append(tTool, wt), append(tPlain, wp)
		}
		b.ReportMetric(stats.Median(wall), "ratio")
		b.ReportMetric(stats.Median(cpu), "cpu-ratio")
		fmt.Printf("go vet: %d patterns, %d rounds, build cache warm, vet cache cold\n", len(pats), *vetRounds)
		fmt.Printf("  wall: go vet -vettool=lockaudit median %.2fs, plain go vet median %.2fs\n", stats.Median(tTool), stats.Median(tPlain))
		fmt.Printf("  median ratio lockaudit-vettool/plain: wall %.3f, CPU %.3f\n", stats.Median(wall), stats.Median(cpu))
		fmt.Printf("  per round, wall: %s\n  per round, CPU:  %s\n", fmtRatios(wall), fmtRatios(cpu))
	}
}
