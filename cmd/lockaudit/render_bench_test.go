package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
	"github.com/lockaudit/lockaudit/rules"
)

// BenchmarkRenderLargeRun prints the peak RSS of `lockaudit render` and
// `lockaudit diff` (the built binary, each in a process of its own) on
// saved runs of about 100 MB: one whose bulk is long texts (a scan of
// large key names writes such a run; its texts are cut to
// report.MaxRunText as read) and one of 200,000 ordinary findings (past
// report.MaxRunKept: refused), and on the largest run that is rendered
// whole (ordinary findings up to just under report.MaxRunKept). It
// asserts no figure (docs/performance.md#rendering-saved-runs):
//
//	go test ./cmd/lockaudit -run '^$' -bench BenchmarkRenderLargeRun -benchtime 1x
func BenchmarkRenderLargeRun(b *testing.B) {
	const gnuTime = "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		b.Skip("needs GNU time (apt-get install time): peak RSS is read with it")
	}
	bin := lockauditBinary(b)
	dir := b.TempDir()
	long := writeBenchRun(b, dir, "long-texts.json", 16, 6<<20)
	many := writeBenchRun(b, dir, "many-findings.json", 150_000, 400)
	// About 670 bytes a finding: just under report.MaxRunKept.
	kept := writeBenchRun(b, dir, "largest-kept.json", report.MaxRunKept/700, 400)
	keptOld := writeBenchRun(b, dir, "largest-kept-old.json", report.MaxRunKept/700-1000, 400)
	type run struct {
		what string
		args []string
	}
	runs := []run{{"lockaudit version (the baseline)", []string{"version"}}}
	for _, in := range []string{long, many, kept} {
		for _, f := range []string{"json", "sarif", "md", "html", "txt"} {
			runs = append(runs, run{filepath.Base(in) + " → " + f, []string{"render", "-o", filepath.Join(dir, "out."+f), in}})
		}
		runs = append(runs, run{filepath.Base(in) + " → all five", []string{"render", "-o", filepath.Join(dir, "all.json"), "-o", filepath.Join(dir, "all.sarif"),
			"-o", filepath.Join(dir, "all.md"), "-o", filepath.Join(dir, "all.html"), "-o", filepath.Join(dir, "all.txt"), in}})
	}
	runs = append(runs,
		run{"diff long-texts (itself)", []string{"diff", "-o", filepath.Join(dir, "diff.html"), long, long}},
		run{"diff largest-kept-old largest-kept → html", []string{"diff", "-o", filepath.Join(dir, "diff.html"), keptOld, kept}},
		run{"diff largest-kept-old largest-kept → json", []string{"diff", "-o", filepath.Join(dir, "diff.json"), keptOld, kept}},
	)
	for range b.N {
		for _, in := range []string{long, many, kept, keptOld} {
			fi, err := os.Stat(in)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("  %-28s %7.1f MB\n", filepath.Base(in), float64(fi.Size())/1e6)
		}
		fmt.Printf("  %-46s %6s %10s\n", "command", "exit", "peak RSS")
		for _, r := range runs {
			// GNU time, not this process's wait4: a child Go starts
			// (vfork) inherits this process's peak RSS, which is the
			// runs' size.
			cmd := exec.Command(gnuTime, append([]string{"-f", "PEAK %M", bin}, r.args...)...)
			cmd.Env = append(os.Environ(), "GOMEMLIMIT=") // the command's own limit
			out, err := cmd.CombinedOutput()
			code := cmd.ProcessState.ExitCode()
			i := strings.LastIndex(string(out), "PEAK ")
			if err != nil && code < 0 || i < 0 {
				b.Fatalf("%s: %v\n%s", r.what, err, out)
			}
			kib, _ := strconv.ParseFloat(strings.TrimSpace(string(out[i+5:])), 64)
			peak := kib / 1024
			out = out[:i]
			fmt.Printf("  %-46s %6d %6.1f MiB\n", r.what, code, peak)
			if code != 0 {
				fmt.Printf("    %s\n", strings.TrimSpace(firstLine(string(out))))
			}
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// writeBenchRun writes a saved vet run of n LA103 findings, each with a
// message of about size bytes (a lock key's name that long), and returns
// its path.
func writeBenchRun(b *testing.B, dir, name string, n, size int) string {
	b.Helper()
	r := &report.Run{SchemaVersion: report.SchemaVersion, Tool: report.Tool{Name: "lockaudit", Version: "bench"}, Command: "vet",
		Packages: []string{"./..."}, Rules: []string{"LA103"}}
	key := strings.Repeat("k", size)
	for i := range n {
		r.Findings = append(r.Findings, report.Finding{
			Rule: "LA103", Severity: rules.Error,
			Message: fmt.Sprintf("plain DEL releases lock key \"lock:%d:%s\"", i, key),
			Pos:     &report.Position{File: fmt.Sprintf("orders/lock%d.go", i/100), Line: 1 + i%100, Col: 2},
			Source:  fmt.Sprintf("rdb.Del(ctx, \"lock:%d\")", i),
		})
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := render.Render(f, r, "json"); err != nil {
		b.Fatal(err)
	}
	return path
}
