package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockaudit/lockaudit/internal/stats"
)

var startRounds = flag.Int("start-rounds", 41, "rounds of BenchmarkStartup (each runs every command once)")

// BenchmarkStartup measures what starting lockaudit costs, against a
// hello-world Go binary built with the same toolchain: `lockaudit version`,
// `lockaudit vet` on a module without packages, and the `-flags` call go
// vet makes to its vettool. Two more baselines say what bounds them: a
// binary that links exactly lockaudit's dependencies and runs only their
// package initialisation (its main prints a line), and `go list` on the
// empty module (vet runs go list three times through go/packages). Every
// round runs each command once, in an order that rotates from round to
// round, so a load spike on the shared machine hits every side alike; it
// prints the medians and the median of the per-round ratios (target: at
// most 1.5 for version and -flags). It asserts no time.
//
//	.ci/bench-start [ROUNDS]
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	lockaudit := filepath.Join(dir, "lockaudit")
	hello := filepath.Join(dir, "hello")
	goBuild(b, ".", lockaudit, "")
	helloSrc := filepath.Join(dir, "hellosrc")
	writeFiles(b, helloSrc, map[string]string{
		"go.mod":  "module example.com/hello\n\ngo 1.26.0\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	})
	goBuild(b, ".", hello, helloSrc)
	depsOnly := filepath.Join(dir, "deps-only")
	buildDepsOnly(b, dir, depsOnly)
	empty := filepath.Join(dir, "empty")
	writeFiles(b, empty, map[string]string{"go.mod": "module example.com/empty\n\ngo 1.26.0\n"})

	type side struct {
		name string
		cmd  func() *exec.Cmd
		ok   func(code int) bool
	}
	in := func(dir, bin string, args ...string) func() *exec.Cmd {
		return func() *exec.Cmd {
			c := exec.Command(bin, args...)
			c.Dir = dir
			return c
		}
	}
	zero := func(code int) bool { return code == 0 }
	sides := []side{
		{"hello-world", in(dir, hello), zero},
		{"lockaudit's dependencies only", in(dir, depsOnly), zero},
		{"lockaudit version", in(dir, lockaudit, "version"), zero},
		{"lockaudit -flags (vettool)", in(dir, lockaudit, "-flags"), zero},
		// No package matches ./... here: vet says so and exits 1. What it
		// costs is start-up and one go list.
		{"lockaudit vet (empty module)", in(empty, lockaudit, "vet", "./..."), func(code int) bool { return code == 0 || code == 1 }},
		{"go list (empty module)", in(empty, "go", "list", "./..."), func(code int) bool { return code == 0 || code == 1 }},
	}
	timeOne := func(s side) (wall, cpu time.Duration) {
		c := s.cmd()
		start := time.Now()
		out, err := c.CombinedOutput()
		wall = time.Since(start)
		if c.ProcessState == nil || !s.ok(c.ProcessState.ExitCode()) {
			b.Fatalf("%s: %v\n%s", s.name, err, out)
		}
		return wall, c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	for _, s := range sides { // warm the page cache and go's caches
		timeOne(s)
	}
	for i := 0; i < b.N; i++ {
		n := len(sides)
		walls := make([][]float64, n)
		cpus := make([][]float64, n)
		ratios := make([][]float64, n) // per round, against hello-world
		for r := 0; r < *startRounds; r++ {
			w := make([]float64, n)
			for k := range n {
				j := (r + k) % n
				wall, cpu := timeOne(sides[j])
				w[j] = wall.Seconds() * 1e3
				walls[j] = append(walls[j], w[j])
				cpus[j] = append(cpus[j], cpu.Seconds()*1e3)
			}
			for j := range n {
				ratios[j] = append(ratios[j], w[j]/w[0])
			}
		}
		fmt.Printf("start-up: %d rounds, order rotating; wall and CPU (user+system) per run, median\n", *startRounds)
		for j, s := range sides {
			line := fmt.Sprintf("  %-31s wall %6.1f ms  CPU %6.1f ms", s.name, stats.Median(walls[j]), stats.Median(cpus[j]))
			if j > 0 {
				line += fmt.Sprintf("  ratio to hello-world %.2f", stats.Median(ratios[j]))
			}
			fmt.Println(line)
		}
		var vetList []float64
		for r := range walls[4] {
			vetList = append(vetList, walls[4][r]/walls[5][r])
		}
		fmt.Printf("  lockaudit vet (empty module) against go list (empty module): ratio %.2f\n", stats.Median(vetList))
		fmt.Println("  (ratio: median of the per-round wall-time ratios; target <= 1.5 for version and -flags)")
		b.ReportMetric(stats.Median(ratios[2]), "version-ratio")
		b.ReportMetric(stats.Median(ratios[3]), "flags-ratio")
		b.ReportMetric(stats.Median(ratios[4]), "vet-empty-ratio")
		b.ReportMetric(stats.Median(ratios[1]), "deps-only-ratio")
	}
}

// goBuild builds the package pkg (in dir, "" for this one) into out.
func goBuild(b *testing.B, pkg, out, dir string) {
	b.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, o)
	}
}

func writeFiles(b *testing.B, dir string, files map[string]string) {
	b.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.TrimLeft(text, "\n")), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// buildDepsOnly builds a program that imports every package lockaudit
// links except lockaudit's own (and those it cannot import: internal and
// vendored ones, which come in through the others) and whose main prints a
// line: the start-up cost of the dependencies' package initialisation
// alone. Its source is given to go build as an overlay, so the clone is
// not written to.
func buildDepsOnly(b *testing.B, dir, out string) {
	b.Helper()
	list, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		b.Fatalf("go list -deps: %v", err)
	}
	self, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		b.Fatalf("go list -m: %v", err)
	}
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, p := range strings.Fields(string(list)) {
		if strings.HasPrefix(p, strings.TrimSpace(string(self))) || strings.Contains(p, "internal") ||
			strings.HasPrefix(p, "vendor/") || p == "unsafe" || p == "C" || p == "runtime/cgo" {
			continue
		}
		fmt.Fprintf(&src, "\t_ %q\n", p)
	}
	src.WriteString(")\n\nfunc main() { println(\"deps only\") }\n")
	cwd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	mainFile := filepath.Join(dir, "depsonly.go")
	fake := filepath.Join(cwd, "internal-bench-depsonly", "main.go") // no such folder: the overlay adds it
	overlay := filepath.Join(dir, "overlay.json")
	writeFiles(b, dir, map[string]string{
		"depsonly.go":  src.String(),
		"overlay.json": fmt.Sprintf(`{"Replace": {%q: %q}}`, fake, mainFile),
	})
	cmd := exec.Command("go", "build", "-overlay", overlay, "-o", out, "./internal-bench-depsonly")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building the dependencies-only program: %v\n%s", err, o)
	}
}
