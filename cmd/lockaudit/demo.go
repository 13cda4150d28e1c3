package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/inventory"
	"github.com/lockaudit/lockaudit/probe/localfleet"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/report/render"
)

func init() {
	register(&command{
		Name:    "demo",
		Usage:   "demo [-offline] [-o FILE]... [-example DIR]",
		Summary: "Audit the bundled example against a mid-upgrade Valkey fleet: live on loopback, or declared (-offline).",
		Doc: `Shows lockaudit's main job on this machine. The example service (an
order service on go-redis, valkey-go, redigo, redsync and bsm/redislock,
embedded in lockaudit) is written to a temporary folder and audited
against a Valkey fleet in the middle of an upgrade: a primary and a
replica on Valkey 9.x, and a replica that is not upgraded yet (8.x) and
can still be promoted. The demo writes report.html, prints the verdict —
the DELIFEQ release is unsafe because of the old replica, naming the code
lines and the node — and removes what it wrote.

Live (the default): the demo starts that fleet on free loopback ports, as
lockaudit audit probes it, and stops the servers always: on success, on
error, on Ctrl-C and SIGTERM. It finds the servers in $LOCKAUDIT_SERVERS,
on PATH (every valkey-server and redis-server, asked for its version),
and in the cache .ci/install-servers fills (~/.cache/lockaudit/servers).
With only one version found, the fleet runs that version and the demo
says so. With none, it says how to install one and offers -offline.

-offline starts nothing: the same fleet is declared, as lockaudit
preflight -inventory judges one, and the verdict is the same.

The analysis needs the go command and the example's modules (from the Go
module proxy, or the module cache).`,
		Examples: `lockaudit demo -offline           # no server needed
lockaudit demo                    # live, with valkey-server on PATH or .ci/install-servers
lockaudit demo -o report.md -o report.sarif`,
		Exit: `0  the demo ran (the audit's own status, 3 for this fleet, is printed)
1  it could not: no server found (live), no go command, the example's
   packages did not load, or a report could not be written
2  usage error
130  interrupted (Ctrl-C); 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT: no
   report is written, and the servers are stopped`,
		Run: runDemo,
	})
}

// The demo's fleet, declared for -offline as the live demo starts it from
// the servers .ci/install-servers installs.
const (
	demoUpgraded = "valkey-9.1.2"
	demoOld      = "valkey-8.1.1"
)

// demoInventory is the -offline fleet: the live demo's topology, declared.
// The addresses are names only; nothing connects to them.
var demoInventory = `# The demo's fleet, mid-upgrade to Valkey 9.1 (declared: nothing connects to it).
topology: replication
nodes:
  - {addr: "node-1.example:6379", role: primary, version: ` + demoUpgraded + `}
  - {addr: "node-2.example:6379", role: replica, primary: "node-1.example:6379", version: ` + demoUpgraded + `}
  - {addr: "node-3.example:6379", role: replica, primary: "node-1.example:6379", version: ` + demoOld + `}
`

// demoRoles are the parts the inventory's nodes play, in its order.
var demoRoles = []string{"primary, upgraded", "replica, upgraded", "replica, not upgraded yet, promotable"}

// demoSettle bounds the wait for the demo's replication to come up.
const demoSettle = time.Minute

func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "demo")
	var outs outputs
	fs.Var(&outs, "o", "write the report to `FILE` (repeatable; format from the extension; default report.html in the working directory)")
	offline := fs.Bool("offline", false, "start no server: judge the example against the declared mid-upgrade fleet, as lockaudit preflight -inventory does")
	exampleFlag := fs.String("example", "", "audit the Go module in `DIR` instead of the bundled example")
	if done, err := parseFlags(fs, args); done {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("demo takes no arguments, got %s", strings.Join(fs.Args(), " "))
	}
	if len(outs) == 0 {
		outs = outputs{"report.html"}
	}
	plan, err := planOutputs("", outs, e.Dir, true)
	if err != nil {
		return err
	}
	example := *exampleFlag
	if example != "" {
		if !filepath.IsAbs(example) {
			example = filepath.Join(e.Dir, example)
		}
		if _, err := os.Stat(filepath.Join(example, "go.mod")); err != nil {
			return usageError("-example %s: not a Go module (%v)", *exampleFlag, err)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		return failure("the demo analyses the example's Go code, which needs the go command: install Go (https://go.dev/dl/) and run the demo again")
	}
	var fleet []demoNode
	var note string
	if !*offline {
		found, looked := findServers(ctx, e)
		var ok bool
		if fleet, note, ok = pickFleet(found); !ok {
			return failure("%s", noServersHelp(looked))
		}
	}

	// Ctrl-C and SIGTERM cancel ctx (main); the deferred kill below then
	// stops the servers. On Linux they also die with this process if it is
	// killed outright (parent-death signal).
	// A demo killed outright (SIGKILL) left its folder: the next removes it.
	removeStaleDemoDirs(os.TempDir())
	root, err := os.MkdirTemp("", demoDirPattern())
	if err != nil {
		return failure("%v", err)
	}
	defer os.RemoveAll(root)
	what := "the bundled example service"
	if example == "" {
		if example, err = writeExample(filepath.Join(root, "example")); err != nil {
			return failure("writing the bundled example: %v", err)
		}
	} else {
		what = "the module " + example
	}

	if *offline {
		err = demoOffline(ctx, e, root, example, what, plan)
	} else {
		err = demoLive(ctx, e, root, example, what, fleet, note, plan)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "\nAudit your own service: lockaudit audit -addr HOST[:PORT] ./...  (or, before an upgrade and without servers: lockaudit preflight -target valkey-9.0 ./...)\n")
	fmt.Fprintf(e.Stdout, "See why the lock needs a fence: lockaudit drill plays a real Sentinel failover on loopback — two holders, and the fence that rejects the stale write (docs/drill.md).\n")
	return nil
}

// demoLive starts the fleet, audits the example against it as lockaudit
// audit does, writes the reports and stops the servers.
func demoLive(ctx context.Context, e *env, root, example, what string, fleet []demoNode, note string, plan *outPlan) error {
	out := e.Stdout
	nodes := make([]localfleet.Node, len(fleet))
	for i, n := range fleet {
		in := n.server.install
		nodes[i] = localfleet.Node{Config: localfleet.Config{Install: &in}}
	}
	if note == "" {
		fmt.Fprintf(out, "Starting a Valkey fleet in the middle of an upgrade to %d.%d, on loopback:\n", fleet[0].server.version.Major, fleet[0].server.version.Minor)
	} else {
		fmt.Fprintf(out, "Starting a small %s fleet on loopback:\n", fleet[0].server.version.Flavor.Title())
	}
	newDir := func() (string, error) { return os.MkdirTemp(root, "node-") }
	servers, err := localfleet.StartReplication(ctx, newDir, demoSettle, nodes...)
	if err != nil {
		if err := stopped(ctx); err != nil {
			return err // StartReplication stopped what it had started
		}
		return failure("starting the servers: %v", err)
	}
	defer func() {
		localfleet.KillAll(servers)
		fmt.Fprintf(out, "\nStopped the %d servers.\n", len(servers))
	}()
	for i, s := range servers {
		fmt.Fprintf(out, "  %-16s %s %-6s %s\n", s.Addr, fleet[i].server.version.Flavor.Title(), s.Version, fleet[i].role)
	}
	var used []string
	for i, n := range fleet {
		if i == 0 || n.server.install.Server != fleet[i-1].server.install.Server {
			used = append(used, n.server.String())
		}
	}
	fmt.Fprintf(out, "Servers: %s\n", strings.Join(used, "; "))
	if note != "" {
		fmt.Fprintf(out, "%s\n", note)
	}
	fmt.Fprintf(out, "\nAuditing %s against it, as lockaudit audit -addr %s ./... does:\n", what, servers[0].Addr)

	prog := newProgress(e, "demo", plan)
	defer prog.done()
	prog.phase("probing the fleet")
	col, err := probe.Collect(ctx, probe.Options{Addrs: []string{servers[0].Addr}, Progress: prog.nodes, Version: version()})
	if err := stopped(ctx); err != nil {
		return err // interrupted: the cause, which main turns into 130/143
	}
	if err != nil {
		return failure("%v", err)
	}
	run, choice, err := demoCode(ctx, e, example, prog, probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology}).Target)
	if err != nil {
		return err
	}
	prog.done()
	run = judgeFleet("audit", run, col, 0)
	run.TargetFrom = choice
	return demoFinish(ctx, e, run, plan)
}

// demoOffline declares the fleet and judges the example against it as
// lockaudit preflight -inventory does.
func demoOffline(ctx context.Context, e *env, root, example, what string, plan *outPlan) error {
	out := e.Stdout
	path := filepath.Join(root, "fleet.yaml")
	if err := os.WriteFile(path, []byte(demoInventory), 0o644); err != nil {
		return failure("%v", err)
	}
	inv, err := inventory.Load(path)
	if err != nil {
		return failure("the demo's inventory: %v", err) // a defect, caught by the tests
	}
	fmt.Fprintf(out, "Declaring a Valkey fleet in the middle of an upgrade to 9.1 (-offline: no server is started):\n")
	for i, n := range inv.Nodes {
		fmt.Fprintf(out, "  %-20s %s %-6s %s\n", n.Addr, n.Parsed.Flavor.Title(), n.Parsed.Number(), demoRoles[i])
	}
	fmt.Fprintf(out, "\nAuditing %s against it, as lockaudit preflight -inventory fleet.yaml ./... does:\n", what)
	prog := newProgress(e, "demo", plan)
	defer prog.done()
	col, err := declaredFleet(inv, nil)
	if err != nil {
		return failure("the demo's inventory: %v", err)
	}
	run, choice, err := demoCode(ctx, e, example, prog, probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology}).Target)
	if err != nil {
		return err
	}
	run = judgeDeclared(run, col)
	run.TargetFrom = choice
	return demoFinish(ctx, e, run, plan)
}

// demoCode runs the code half on the example folder at the fleet's own
// target, as audit and preflight would; packages that do not load stop
// the demo with what it needs.
func demoCode(ctx context.Context, e *env, example string, prog *progress, fleet probe.Target) (*report.Run, *report.TargetChoice, error) {
	code := &codeFlags{Dir: example, Uses: true}
	if err := code.load(e); err != nil {
		return nil, nil, err
	}
	choice := code.deriveTarget(fleet)
	prog.phase("loading and analysing the example's packages")
	run, err := code.run(ctx, e, nil)
	if err := stopped(ctx); err != nil {
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	if len(run.Errors) > 0 {
		return nil, nil, failure("the example's packages did not load: %s: %s\n(the analysis needs the example's modules — go-redis, valkey-go, redigo, redsync, bsm/redislock — from the Go module proxy or the module cache; check GOPROXY and GOFLAGS)", run.Errors[0].Where, run.Errors[0].Message)
	}
	return run, choice, nil
}

// demoFinish prints the verdict, writes the planned reports and says
// where they went.
func demoFinish(ctx context.Context, e *env, run *report.Run, plan *outPlan) error {
	printVerdict(e.Stdout, run)
	written, _, err := emitReports(ctx, e, plan, func(w io.Writer, format string, color bool) error {
		return render.RenderWith(w, run, format, render.Options{Color: color})
	})
	if err != nil {
		return err
	}
	if len(written) > 0 {
		fmt.Fprintf(e.Stdout, "Report: %s — open it in a browser: verdict first, then the topology, the servers, the code findings with their source lines, what each rule means, and the evidence.\n", strings.Join(written, ", "))
	}
	return nil
}

// printVerdict prints each lock path's verdict with all its reasons, as
// the reports word them, and what else the report holds.
func printVerdict(w io.Writer, run *report.Run) {
	fmt.Fprintf(w, "\nVerdict (lockaudit %s exits %d for this run):\n", run.Command, report.ExitCode(run))
	for _, pv := range render.Verdicts(run) {
		fmt.Fprintf(w, "  %s: %s\n", pv.Label(), pv.Word)
		for _, l := range pv.Lines {
			fmt.Fprintf(w, "    - %s\n", report.Escape(l.Detail))
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
	fmt.Fprintf(w, "Also: %s in the code and %d on the servers (%s).\n", report.Plural(code, "finding"), node, report.Summary(run))
}
