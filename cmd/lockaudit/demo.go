package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/report"
)

func init() {
	register(&command{
		Name:  "demo",
		Usage: "demo [-o FILE]... [-example DIR]",
		Summary: `Audit the bundled example against a local mid-upgrade Valkey fleet (after .ci/install-servers).

Shows lockaudit's main job on this machine: start a small mid-upgrade
Valkey fleet on loopback (a 9.1 primary, a 9.1 replica, and an 8.1
replica that has not been upgraded yet and can still be promoted), audit
the bundled example service (testdata/example) against it exactly as
lockaudit audit does, write report.html, print the verdict, and stop the
servers — always: on success, on error, on Ctrl-C and on SIGTERM.

The example is found by walking up from the working directory to the
lockaudit repository (go.mod of github.com/lockaudit/lockaudit with
testdata/example), else next to the source this binary was built from;
-example DIR names it. The servers come from .ci/install-servers
($LOCKAUDIT_SERVERS, default ~/.cache/lockaudit/servers).

Exit status: 0 the demo ran (the audit's own status, 3 for this fleet, is
printed); 1 it could not (servers not installed, the example not found);
2 usage error; 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM — no
report is written then, and the servers are stopped.`,
		Run: runDemo,
	})
}

// demoFleet is the topology the demo starts: a realistic fleet in the
// middle of a rolling upgrade to 9.1.
var demoFleet = []struct {
	node localfleet.Node
	role string
}{
	{localfleet.Node{Config: localfleet.Config{Version: localfleet.Valkey91}}, "primary, upgraded"},
	{localfleet.Node{Config: localfleet.Config{Version: localfleet.Valkey91}, Of: 0}, "replica, upgraded"},
	{localfleet.Node{Config: localfleet.Config{Version: localfleet.Valkey81}, Of: 0}, "replica, not upgraded yet, promotable"},
}

// demoSettle bounds the wait for the demo's replication to come up.
const demoSettle = time.Minute

func runDemo(ctx context.Context, e *env, args []string) (err error) {
	fs := newFlagSet(e, "demo")
	var outs outputs
	fs.Var(&outs, "o", "write the report to `FILE` (repeatable; format from the extension; default report.html in the working directory)")
	exampleFlag := fs.String("example", "", "the example module to audit (default: testdata/example of the lockaudit repository)")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("demo takes no arguments, got %s", strings.Join(fs.Args(), " "))
	}
	if len(outs) == 0 {
		outs = outputs{"report.html"}
	}
	plan, err := planOutputs("", outs, e.Dir)
	if err != nil {
		return err
	}
	example := *exampleFlag
	if example != "" && !filepath.IsAbs(example) {
		example = filepath.Join(e.Dir, example)
	}
	if example == "" {
		if example = findExample(e.Dir); example == "" {
			return failure("cannot find the bundled example (testdata/example of the lockaudit repository): run the demo inside a clone of the repository, or give -example DIR")
		}
	} else if _, err := os.Stat(filepath.Join(example, "go.mod")); err != nil {
		return usageError("-example %s: not a Go module (%v)", *exampleFlag, err)
	}
	servers := localfleet.DirFrom(e.Getenv)
	for _, n := range demoFleet {
		if _, err := localfleet.LookupIn(servers, n.node.Line()); err != nil {
			return failure("the demo starts real Valkey servers, and they are not installed: run .ci/install-servers first (from the repository root; it needs no root)\n  %v", err)
		}
	}

	// Ctrl-C and SIGTERM cancel ctx (main); the deferred kill below then
	// stops the servers. They also die with this process if it is killed
	// outright (parent-death signal).
	root, err := os.MkdirTemp("", "lockaudit-demo-")
	if err != nil {
		return failure("%v", err)
	}
	defer os.RemoveAll(root)
	newDir := func() (string, error) { return os.MkdirTemp(root, "node-") }

	out := e.Stdout
	fmt.Fprintf(out, "Starting a Valkey fleet in the middle of an upgrade to 9.1, on loopback:\n")
	nodes := make([]localfleet.Node, len(demoFleet))
	for i, n := range demoFleet {
		nodes[i] = n.node
		nodes[i].Servers = servers
	}
	fleet, err := localfleet.StartReplication(ctx, newDir, demoSettle, nodes...)
	if err != nil {
		if err := stopped(ctx); err != nil {
			return err // StartReplication stopped what it had started
		}
		return failure("starting the servers: %v", err)
	}
	defer func() {
		localfleet.KillAll(fleet)
		fmt.Fprintf(out, "\nStopped the %d servers.\n", len(fleet))
	}()
	for i, s := range fleet {
		fmt.Fprintf(out, "  %-16s Valkey %-6s %s\n", s.Addr, s.Version, demoFleet[i].role)
	}
	rel, _ := filepath.Rel(e.Dir, example)
	if rel == "" || strings.HasPrefix(rel, "..") {
		rel = example
	}
	fmt.Fprintf(out, "\nAuditing the bundled example service (%s) against it: lockaudit audit -C %s -addr %s -o %s\n", rel, rel, fleet[0].Addr, strings.Join(outs, " -o "))

	run, err := demoAudit(ctx, e, example, fleet[0].Addr, plan)
	if err != nil {
		return err // interrupted: the cause, which main turns into 130/143
	}
	written, _, err := emitReports(ctx, e, run, plan, nil)
	if err != nil {
		return err
	}
	printVerdict(out, run)
	fmt.Fprintf(out, "\nReport: %s — open it in a browser: verdict first, then the topology, the servers, the code findings with their source lines, what each rule means, and what each server answered.\n", strings.Join(written, ", "))
	fmt.Fprintf(out, "Audit your own service: lockaudit audit -addr HOST:PORT ./...  (or lockaudit preflight -target valkey-9.0 ./... before an upgrade, without servers)\n")
	return nil
}

// demoAudit runs what `lockaudit audit -C example -addr seed` runs.
func demoAudit(ctx context.Context, e *env, example, seed string, plan []outTarget) (*report.Run, error) {
	code := codeFlags{Dir: example, Uses: true}
	if err := code.load(e); err != nil {
		return nil, err
	}
	prog := newProgress(e, "demo", plan)
	defer prog.done()
	prog.phase("loading and analysing the example's packages")
	run, err := code.run(ctx, e, nil)
	if err != nil {
		return nil, err
	}
	prog.phase("probing the fleet")
	fleet, err := probe.Run(ctx, probe.Options{Addrs: []string{seed}, Code: run.Uses, CodeKnown: true, Progress: prog.nodes, Version: version()})
	if err := stopped(ctx); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, failure("%v", err)
	}
	return joinRuns("audit", run, fleet), nil
}

// printVerdict prints each lock path's verdict with its reasons, and what
// else the report holds.
func printVerdict(w interface{ Write([]byte) (int, error) }, run *report.Run) {
	v := run.Verdict
	fmt.Fprintf(w, "\nVerdict (lockaudit audit exits %d for this run):\n", report.ExitCode(run))
	for _, p := range []struct{ key, title, value string }{
		{"native_release", "Native release (DELIFEQ)", v.NativeRelease},
		{"native_extend", "Native extend (SET IFEQ)", v.NativeExtend},
		{"lua", "Lua scripts", v.Lua},
	} {
		fmt.Fprintf(w, "  %s: %s\n", p.title, strings.ToUpper(p.value))
		for _, r := range v.Reasons {
			if rest, ok := strings.CutPrefix(r, p.key+": "); ok {
				if _, detail, ok := strings.Cut(rest, " — "); ok {
					fmt.Fprintf(w, "    - %s\n", report.Escape(detail))
				}
			}
		}
	}
	code, node := 0, 0
	for _, f := range run.Active() {
		if f.Pos != nil {
			code++
		} else {
			node++
		}
	}
	fmt.Fprintf(w, "Also: %d findings in the code and %d on the servers (%s).\n", code, node, report.Summary(run))
}

// findExample finds testdata/example of the lockaudit repository: walking
// up from dir to the repository's root, else next to the source file this
// binary was built from (go run, go build in a clone). "" when neither has
// it.
func findExample(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if isLockauditRoot(d) {
			return filepath.Join(d, "testdata", "example")
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		root := filepath.Join(filepath.Dir(file), "..", "..")
		if isLockauditRoot(root) {
			return filepath.Join(filepath.Clean(root), "testdata", "example")
		}
	}
	return ""
}

// isLockauditRoot reports whether dir is the root of the lockaudit module
// and holds the bundled example.
func isLockauditRoot(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "testdata", "example", "go.mod")); err != nil {
		return false
	}
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "module ") {
			return strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module")), `"`) == "github.com/lockaudit/lockaudit"
		}
	}
	return false
}
