// Package conform checks that a live fleet behaves as documented for the
// lock pattern the code relies on, by running it. It is the only part of
// lockaudit that writes, and only to scratch keys: on each primary it runs
// the acquire steps (SET NX PX, MULTI SET NX + INCR fence, WAIT) and the
// steps of each command relied on (Options.Probe.Uses, as for probe: SET
// IFEQ PX and the LA104 trap, DELIFEQ, DELEX IFEQ, a Lua release); a
// command not relied on is skipped, never failed. It runs them on keys
// under a random hash tag below a configurable prefix, compares every
// reply with the documented one, and after each write reads the keys on
// every replica (GET/PTTL) to prove the replicated effect: a replica older
// than 8.1 silently keeps the old value of a replicated SET IFEQ without
// PX. A step the server lacks says what works there instead (the
// capability table's remedies: DELEX IFEQ on Redis, never DELIFEQ), and
// every replica a failover can promote is checked for every command relied
// on. Discovery is the fleet core's (probe.Collect, probe.Evaluate): a
// fleet whose members are not all known is not fully tested (exit 4).
//
// Every key it creates carries a TTL of at most MaxTTL from the command
// that creates it on: the LA104 trap drops its key's TTL and restores it
// in one transaction, so no client, crash or partition ever finds a
// scratch key without one. Every key is deleted at the end, also after an
// error, the deadline or an interrupt (the cleanup runs on a context of
// its own). A step a server refuses for a reason that is not the lock
// pattern's — a permission (NOPERM), a slot that moved (MOVED, ASK), a
// node that is no longer a writable primary — is not tested, never
// failed. Its connections refuse any command outside Writes/Reads and any
// key outside the prefix.
package conform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
	"github.com/lockaudit/lockaudit/rules/config"
)

// ClientName is the connection name conform sets (CLIENT LIST shows it).
const ClientName = "lockaudit-conform"

// Defaults and limits (docs/reliability.md lists the limits for users).
const (
	DefaultPrefix = "lockaudit:conform:"
	DefaultTTL    = 30 * time.Second
	// MinTTL and MaxTTL bound -ttl: long enough for the steps to run,
	// short enough that a key a crash left behind soon expires.
	MinTTL = time.Second
	MaxTTL = 10 * time.Minute
)

// cleanupTimeout bounds the cleanup after an interrupt; after the
// deadline, the cleanup ends with the deadline (probe.Reserve is kept
// for it and the report).
const cleanupTimeout = 10 * time.Second

// Options configure a conformance test.
type Options struct {
	// Probe is how to find and reach the fleet; discovery is the probe's
	// (read-only), and its Deadline bounds the whole test.
	Probe  probe.Options
	Prefix string        // scratch keys start with it (default DefaultPrefix)
	TTL    time.Duration // TTL of every scratch key (default DefaultTTL)
	// WaitTimeout is WAIT's timeout (default: a third of Probe.Timeout,
	// at most 1s); it must stay under Probe.Timeout.
	WaitTimeout time.Duration

	// afterStep, in tests, is called after each primary step.
	afterStep func(step string)
}

// Run discovers the fleet and tests each primary. The error is for bad
// options only.
func Run(ctx context.Context, opt Options) (*report.Run, error) {
	if opt.Prefix == "" {
		opt.Prefix = DefaultPrefix
	}
	if err := config.CheckScratchPrefix(opt.Prefix); err != nil {
		return nil, err
	}
	if opt.TTL <= 0 {
		opt.TTL = DefaultTTL
	}
	if opt.TTL < MinTTL {
		return nil, fmt.Errorf("the scratch TTL %s is too short for the steps to run (at least %s)", opt.TTL, MinTTL)
	}
	if opt.TTL > MaxTTL {
		return nil, fmt.Errorf("the scratch TTL %s is over %s, the longest a scratch key may outlive a crash", opt.TTL, MaxTTL)
	}
	opt.Probe = opt.Probe.Defaulted()
	if opt.WaitTimeout <= 0 {
		opt.WaitTimeout = min(time.Second, opt.Probe.Timeout/3)
	}
	if opt.WaitTimeout >= opt.Probe.Timeout {
		return nil, fmt.Errorf("WAIT's timeout %s must be shorter than -timeout %s", opt.WaitTimeout, opt.Probe.Timeout)
	}
	end := time.Now().Add(opt.Probe.Deadline) // the cleanup after the deadline ends by then
	ctx, cancel := probe.WithDeadline(ctx, opt.Probe.Deadline)
	defer cancel()
	col, err := probe.Collect(ctx, opt.Probe)
	if err != nil {
		return nil, err
	}
	found := probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology})
	run := report.New("conform", opt.Probe.Version)
	run.Topology, run.Time, run.Probed = col.Topology, col.Time, col.Probed
	uses, from := opt.Probe.Uses, report.UsesNamed
	if len(uses) == 0 {
		uses, from = probe.AssumedUses(col.Facts), report.UsesAssumed
	}
	for _, u := range uses {
		run.Uses = append(run.Uses, report.Use{Command: u})
	}
	run.UsesFrom = from
	if len(col.Errors) > 0 {
		run.Errors = col.Errors
		return run, nil
	}
	d := probe.NewDialer(opt.Probe)
	unreached := probe.Unreached(col.Facts)
	replicas := replicasBelow(found.Nodes)
	for _, n := range found.Nodes {
		switch n.Role {
		case probe.RolePrimary:
			t := &tester{ctx: ctx, end: end, opt: opt, d: d, node: n, cluster: col.Topology == probe.Cluster, uses: uses, unreached: unreached}
			t.replicaNodes = replicas[n.Addr]
			nodes, findings := t.run()
			run.Conform = append(run.Conform, nodes...)
			run.Findings = append(run.Findings, findings...)
		case probe.RoleReplica, probe.RoleSentinel:
		default:
			run.Conform = append(run.Conform, report.ConformNode{Node: n.Addr, Role: n.Role, Error: "its role could not be read, so it was not tested (" + strings.Join(n.Errors, "; ") + ")"})
		}
	}
	// What discovery could not see: a primary nobody listed is not tested.
	for _, g := range found.Fleet.Gaps {
		run.Conform = append(run.Conform, report.ConformNode{Node: g.Node.Addr, Role: probe.RoleUnknown, Error: "members not all known, so not every primary was tested: " + g.What.Words(g.Node)})
	}
	if ctx.Err() != nil {
		run.Errors = append(run.Errors, report.Error{Where: "conform", Message: probe.Stopped(ctx) + " before every step ran; the scratch keys were deleted (see the cleanup rows), or expire within -ttl " + opt.TTL.String()})
	}
	redact(run, d.Redact)
	run.Sort()
	return run, nil
}

// redact removes the password from every text conform wrote from what
// servers answered, as the probe does with its facts.
func redact(run *report.Run, r func(string) string) {
	for i := range run.Conform {
		n := &run.Conform[i]
		n.Error = r(n.Error)
		for j := range n.Steps {
			st := &n.Steps[j]
			st.Command, st.Expected, st.Got, st.Advice = r(st.Command), r(st.Expected), r(st.Got), r(st.Advice)
		}
	}
	for i := range run.Findings {
		run.Findings[i].Message, run.Findings[i].Subject = r(run.Findings[i].Message), r(run.Findings[i].Subject)
	}
}

// replicasBelow maps each node's address to the replicas that replicate
// it, directly or through other replicas, in the order of nodes. Each
// replica's chain is walked once: a fleet at the node cap is 10,000 nodes,
// and a walk per primary and replica would cost seconds past -deadline.
func replicasBelow(nodes []report.Node) map[string][]report.Node {
	byAddr := make(map[string]int, len(nodes))
	for i, n := range nodes {
		byAddr[n.Addr] = i
	}
	out := map[string][]report.Node{}
	for _, r := range nodes {
		seen := map[string]bool{}
		for n := r; n.Role == probe.RoleReplica && n.Primary != "" && !seen[n.Addr]; {
			out[n.Primary] = append(out[n.Primary], r)
			seen[n.Addr] = true
			i, ok := byAddr[n.Primary]
			if !ok {
				break
			}
			n = nodes[i]
		}
	}
	return out
}

// tester runs the steps on one primary and reads its replicas.
type tester struct {
	ctx          context.Context
	end          time.Time // the run's deadline: a cleanup after it ends by then
	opt          Options
	d            *probe.Dialer
	node         report.Node
	cluster      bool
	replicaNodes []report.Node
	uses         []rules.Command   // the commands relied on: their steps run, the others are skipped
	unreached    map[string]string // nodes discovery could not reach: not dialled again

	version  rules.Version // the primary's release
	p        *probe.Conn
	replicas []*replica
	table    *report.ConformNode
	findings []report.Finding

	keys   map[string]string // short name -> scratch key
	tokens map[string]string // token value -> its name (A, B, ...)
	broken bool              // a transport error: stop the steps
}

type replica struct {
	node  report.Node
	c     *probe.Conn
	table *report.ConformNode
}

// keyNames are the scratch keys, all under one hash tag (one slot).
var keyNames = []string{"lock", "lock2", "fence", "gone", "lock3", "lua", "trap"}

func (t *tester) run() ([]report.ConformNode, []report.Finding) {
	t.version = nodeVersion(t.node)
	t.table = &report.ConformNode{Node: t.node.Addr, Role: t.node.Role, Server: serverName(t.node), Steps: []report.ConformStep{}}
	var err error
	if why, ok := t.unreached[t.node.Addr]; ok {
		err = errors.New("unreachable at discovery (" + why + ")")
	} else {
		t.p, err = t.d.Dial(t.ctx, t.node.Addr, ClientName, scratchOnly(t.opt.Prefix, Writes))
	}
	if err != nil {
		t.table.Error = "not tested: " + err.Error()
		return []report.ConformNode{*t.table}, nil
	}
	defer t.p.Close()
	for _, rn := range t.replicaNodes {
		r := &replica{node: rn, table: &report.ConformNode{Node: rn.Addr, Role: rn.Role, Server: serverName(rn), Primary: t.node.Addr, Steps: []report.ConformStep{}}}
		t.replicas = append(t.replicas, r)
		if why, ok := t.unreached[rn.Addr]; ok {
			r.table.Error = "its replicated effects were not read: unreachable at discovery (" + why + ")"
			continue
		}
		c, err := t.d.Dial(t.ctx, rn.Addr, ClientName, scratchOnly(t.opt.Prefix, Reads))
		if err != nil {
			r.table.Error = "its replicated effects were not read: " + err.Error()
			continue
		}
		defer c.Close()
		if t.cluster {
			if v, err := c.Do(t.ctx, "READONLY"); err != nil || v.Kind == resp.Err {
				r.table.Error = "its replicated effects were not read: READONLY: " + text(v, err)
				continue
			}
		}
		r.c = c
	}
	if err := t.chooseKeys(); err != nil {
		t.table.Error = "not tested: " + err.Error()
	} else {
		func() {
			defer t.cleanup() // whatever ends the steps, a panic included
			t.steps()
		}()
	}
	t.promotion()
	out := []report.ConformNode{*t.table}
	for _, r := range t.replicas {
		out = append(out, *r.table)
	}
	return out, t.findings
}

// chooseKeys picks a random hash tag (one the primary serves, in a
// cluster) and checks that none of the scratch keys exists.
func (t *tester) chooseKeys() error {
	owns := func(uint16) bool { return true }
	if t.cluster {
		v, err := t.p.Do(t.ctx, "CLUSTER", "NODES")
		if err != nil {
			return err
		}
		s, _ := v.Text()
		ranges, err := ownSlots(s)
		if err != nil {
			return fmt.Errorf("CLUSTER NODES: %v", err)
		}
		owns = func(slot uint16) bool {
			for _, r := range ranges {
				if slot >= r[0] && slot <= r[1] {
					return true
				}
			}
			return false
		}
	}
	var tag string
	for range 100000 {
		tag = randomHex(8)
		if owns(crc16([]byte(tag)) % 16384) {
			break
		}
		tag = ""
	}
	if tag == "" {
		return errors.New("no slot of this primary found for the scratch keys")
	}
	t.keys = map[string]string{}
	t.tokens = map[string]string{}
	var cmds [][]string
	for _, n := range keyNames {
		t.keys[n] = t.opt.Prefix + "{" + tag + "}:" + n
		cmds = append(cmds, []string{"PTTL", t.keys[n]})
	}
	vs, err := t.p.DoAll(t.ctx, cmds)
	got := "all -2"
	status := report.StepPass
	if err != nil {
		got, status = err.Error(), report.StepError
	} else {
		for i, v := range vs {
			if v.Kind == resp.Err && notTested(v.Str) != "" {
				got, status = keyNames[i]+": "+t.display(v)+" ("+notTested(v.Str)+")", report.StepError
				break
			}
			if v.Kind != resp.Int || v.Int != -2 {
				got, status = keyNames[i]+": "+t.display(v), report.StepFail
				break
			}
		}
	}
	t.row(t.table, stepRow{ConformStep: report.ConformStep{Step: "scratch keys", Kind: report.StepSetup, Command: "PTTL " + t.opt.Prefix + "{" + tag + "}:*", Expected: "-2 (none exists)", Got: got, Status: status}})
	switch status {
	case report.StepPass:
	case report.StepFail:
		t.keys = nil // not ours: never deleted
		return errors.New("the scratch keys are not free: " + got)
	default:
		t.keys = nil // none was written
		return errors.New("the scratch keys could not be checked: " + got)
	}
	return nil
}

// token returns a new random token, remembered under name for display.
func (t *tester) token(name string) string {
	v := randomHex(20)
	t.tokens[v] = "token " + name
	return v
}

// relies reports whether the code relies on c.
func (t *tester) relies(c rules.Command) bool { return slices.Contains(t.uses, c) }

// skip records the steps of a command the code does not rely on: skipped,
// never failed.
func (t *tester) skip(c rules.Command, steps ...string) {
	for _, step := range steps {
		t.row(t.table, stepRow{ConformStep: report.ConformStep{Step: step, Kind: report.StepRun, Uses: c, Command: "-", Expected: "-",
			Got: "not run: the code does not rely on " + c.Title() + " (" + usesText(t.uses) + ")", Status: report.StepSkipped}})
	}
}

func (t *tester) steps() {
	ttl := strconv.FormatInt(t.opt.TTL.Milliseconds(), 10)
	k := t.keys
	a, b, c, d, e, f := t.token("A"), t.token("B"), t.token("C"), t.token("D"), t.token("E"), t.token("F")

	t.one(0, "acquire", "OK", []string{"SET", k["lock"], a, "NX", "PX", ttl}, isOK, "lock")
	t.one(0, "acquire while held", "nil", []string{"SET", k["lock"], b, "NX", "PX", ttl}, isNil, "lock")

	fenceTx := func(tok string) [][]string {
		return [][]string{{"MULTI"}, {"SET", k["lock2"], tok, "NX", "PX", ttl}, {"INCR", k["fence"]}, {"PEXPIRE", k["fence"], ttl}, {"EXEC"}}
	}
	var fence int64
	t.tx(0, "acquire + fence", "[OK, fence n >= 1, 1]", fenceTx(c), func(v resp.Value) bool {
		ok := v.Kind == resp.Array && len(v.Elems) == 3 && isOK(v.Elems[0]) && v.Elems[1].Kind == resp.Int && v.Elems[1].Int >= 1 && v.Elems[2].Kind == resp.Int && v.Elems[2].Int == 1
		if ok {
			fence = v.Elems[1].Int
		}
		return ok
	}, "lock2", "fence")
	t.tx(0, "acquire + fence while held", "[nil, fence n+1, 1] (nil: not acquired; the fence still counts)", fenceTx(d), func(v resp.Value) bool {
		return v.Kind == resp.Array && len(v.Elems) == 3 && isNil(v.Elems[0]) && v.Elems[1].Kind == resp.Int && v.Elems[1].Int == fence+1
	}, "lock2", "fence")

	n := strconv.Itoa(len(t.replicas))
	t.one(0, "replica ack", n+" (every replica acknowledged)", []string{"WAIT", n, strconv.FormatInt(t.opt.WaitTimeout.Milliseconds(), 10)},
		func(v resp.Value) bool { return v.Kind == resp.Int && strconv.FormatInt(v.Int, 10) == n })

	if t.relies(rules.UseIFEQ) {
		t.withTTL(rules.UseIFEQ, "extend", "OK, then PTTL > 0", []string{"SET", k["lock"], a, "IFEQ", a, "PX", ttl}, isOK, "lock", func(p int64) bool { return p > 0 })
		t.withTTL(rules.UseIFEQ, "extend a lost lock", "nil, then PTTL -2 (not created)", []string{"SET", k["gone"], a, "IFEQ", a, "PX", ttl}, isNil, "gone", func(p int64) bool { return p == -2 })
	} else {
		t.skip(rules.UseIFEQ, "extend", "extend a lost lock")
	}
	if t.relies(rules.UseDELIFEQ) {
		t.one(rules.UseDELIFEQ, "release, stale token", "0", []string{"DELIFEQ", k["lock"], b}, isInt(0), "lock")
		t.withTTL(rules.UseDELIFEQ, "release", "1, then PTTL -2", []string{"DELIFEQ", k["lock"], a}, isInt(1), "lock", func(p int64) bool { return p == -2 })
	} else {
		t.skip(rules.UseDELIFEQ, "release, stale token", "release")
	}
	if t.relies(rules.UseDELEX) {
		if t.setup("DELEX setup", []string{"SET", k["lock3"], a, "NX", "PX", ttl}) {
			t.one(rules.UseDELEX, "DELEX release, stale token", "0", []string{"DELEX", k["lock3"], "IFEQ", b}, isInt(0), "lock3")
			t.withTTL(rules.UseDELEX, "DELEX release", "1, then PTTL -2", []string{"DELEX", k["lock3"], "IFEQ", a}, isInt(1), "lock3", func(p int64) bool { return p == -2 })
		}
	} else {
		t.skip(rules.UseDELEX, "DELEX release, stale token", "DELEX release")
	}
	if t.relies(rules.UseLua) {
		if t.setup("Lua setup", []string{"SET", k["lua"], c, "NX", "PX", ttl}) {
			t.one(rules.UseLua, "Lua release, stale token", "0", []string{"EVAL", luaRelease, "1", k["lua"], d}, isInt(0), "lua")
			t.withTTL(rules.UseLua, "Lua release", "1, then PTTL -2", []string{"EVAL", luaRelease, "1", k["lua"], c}, isInt(1), "lua", func(p int64) bool { return p == -2 })
		}
	} else {
		t.skip(rules.UseLua, "Lua release, stale token", "Lua release")
	}

	// The LA104 trap: a successful SET IFEQ without PX drops the TTL and
	// reaches replicas verbatim; a replica older than 8.1 rejects it and
	// keeps the old value. The key is set with PX first, and its TTL is
	// restored in the same transaction as the trap, so no client, crash or
	// partition ever finds it without one: PTTL inside the transaction
	// shows the loss.
	if !t.relies(rules.UseIFEQ) {
		t.skip(rules.UseIFEQ, trapStep, afterTrapStep)
		return
	}
	if t.setup("trap setup", []string{"SET", k["trap"], e, "NX", "PX", ttl}) {
		t.tx(rules.UseIFEQ, trapStep, "[OK, -1 (the TTL is dropped), 1 (restored in the same transaction)]",
			[][]string{{"MULTI"}, {"SET", k["trap"], f, "IFEQ", e}, {"PTTL", k["trap"]}, {"PEXPIRE", k["trap"], ttl}, {"EXEC"}},
			func(v resp.Value) bool {
				return v.Kind == resp.Array && len(v.Elems) == 3 && isOK(v.Elems[0]) && isInt(-1)(v.Elems[1]) && isInt(1)(v.Elems[2])
			}, "trap")
		t.withTTL(rules.UseIFEQ, afterTrapStep, "OK, then PTTL > 0", []string{"SET", k["trap"], f, "IFEQ", f, "PX", ttl}, isOK, "trap", func(p int64) bool { return p > 0 })
	}
}

// trapStep is the LA104 trap's step, and afterTrapStep the extend with PX
// that follows it (on a replica that rejected the trap, the two converge).
const (
	trapStep      = "extend without PX (LA104 trap)"
	afterTrapStep = "extend with PX after the trap"
)

// luaRelease is the one script conform runs (scratchOnly refuses any
// other): the classic compare-and-delete.
const luaRelease = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`

// one sends a command that exercises uses (0: none relied on, the
// acquire), judges its reply, and reads the keys on replicas.
func (t *tester) one(uses rules.Command, step, expected string, args []string, ok func(resp.Value) bool, keys ...string) {
	if t.broken {
		return
	}
	v, err := t.send(args)
	t.judge(report.StepRun, uses, step, t.show(args), expected, v, err, ok)
	t.replicated(step, keys...)
}

// withTTL is one, then PTTL of key judged by ttlOK.
func (t *tester) withTTL(uses rules.Command, step, expected string, args []string, ok func(resp.Value) bool, key string, ttlOK func(int64) bool) {
	if t.broken {
		return
	}
	vs, err := t.sendAll([][]string{args, {"PTTL", t.keys[key]}})
	cmd := t.show(args) + "; PTTL " + key
	switch {
	case err != nil:
		t.judge(report.StepRun, uses, step, cmd, expected, resp.Value{}, err, ok)
	case !ok(vs[0]) || vs[0].Kind == resp.Err:
		t.judge(report.StepRun, uses, step, cmd, expected, vs[0], nil, ok)
	default:
		got := t.display(vs[0]) + ", PTTL " + t.display(vs[1])
		status := report.StepPass
		switch {
		case vs[1].Kind == resp.Err && notTested(vs[1].Str) != "":
			got, status = got+" ("+notTested(vs[1].Str)+")", report.StepError
		case vs[1].Kind != resp.Int || !ttlOK(vs[1].Int):
			status = report.StepFail
		}
		t.row(t.table, stepRow{ConformStep: report.ConformStep{Step: step, Kind: report.StepRun, Uses: uses, Command: cmd, Expected: expected, Got: got, Status: status}})
	}
	t.replicated(step, key)
}

// tx sends a MULTI … EXEC batch that exercises uses (0: none relied on)
// and judges EXEC's reply; an error a command was queued or run with is
// judged as the step's reply (a missing command, a refusal).
func (t *tester) tx(uses rules.Command, step, expected string, cmds [][]string, ok func(resp.Value) bool, keys ...string) {
	if t.broken {
		return
	}
	var shown []string
	for _, c := range cmds {
		shown = append(shown, t.show(c))
	}
	vs, err := t.sendAll(cmds)
	var exec resp.Value
	if err == nil {
		exec = vs[len(vs)-1]
		for _, v := range vs[:len(vs)-1] { // MULTI: OK; each queued: QUEUED
			if v.Kind == resp.Err {
				exec = v
			}
		}
		if exec.Kind == resp.Array {
			for _, v := range exec.Elems {
				if v.Kind == resp.Err {
					exec = v // a command of the transaction failed: that is the answer
					break
				}
			}
		}
	}
	t.judge(report.StepRun, uses, step, strings.Join(shown, "; "), expected, exec, err, ok)
	t.replicated(step, keys...)
}

// setup sends a command the steps need (a fresh lock); a failure is a row.
func (t *tester) setup(step string, args []string) bool {
	if t.broken {
		return false
	}
	v, err := t.send(args)
	if err == nil && isOK(v) {
		return true
	}
	t.judge(report.StepSetup, 0, step, t.show(args), "OK", v, err, isOK)
	return false
}

func (t *tester) send(args []string) (resp.Value, error) {
	vs, err := t.sendAll([][]string{args})
	if err != nil {
		return resp.Value{}, err
	}
	return vs[0], nil
}

func (t *tester) sendAll(cmds [][]string) ([]resp.Value, error) {
	vs, err := t.p.DoAll(t.ctx, cmds)
	if err != nil {
		t.broken = true
	}
	return vs, err
}

// judge records a primary step: pass, fail, missing (the server does not
// know the command or option: the row says what works there instead) or
// error (no answer). kind is the row's: a step run, or the setup a step
// needs.
func (t *tester) judge(kind report.StepKind, uses rules.Command, step, cmd, expected string, v resp.Value, err error, ok func(resp.Value) bool) {
	row := report.ConformStep{Step: step, Kind: kind, Uses: uses, Command: cmd, Expected: expected}
	switch {
	case err != nil:
		row.Got, row.Status = err.Error(), report.StepError
	case v.Kind == resp.Err && notTested(v.Str) != "":
		row.Got, row.Status = t.display(v)+" ("+notTested(v.Str)+")", report.StepError
	case v.Kind == resp.Err && missing(v.Str):
		row.Got, row.Status = t.display(v), report.StepMissing
		if uses.Valid() {
			row.Got += lacking(t.version, uses)
			row.Advice = remedy("it", t.version, uses)
		}
	case ok(v) && v.Kind != resp.Err:
		row.Got, row.Status = t.display(v), report.StepPass
	default:
		row.Got, row.Status = t.display(v), report.StepFail
	}
	t.row(t.table, stepRow{ConformStep: row})
}

// notTested says why a server's error reply leaves a step not tested
// rather than failed, or "": the server refused it for a reason that is
// not the lock pattern's (a permission, a slot that moved, a node no longer
// a writable primary, a server busy or loading).
func notTested(msg string) string {
	code, _, _ := strings.Cut(msg, " ")
	switch code {
	case "NOPERM":
		return "not tested: the conform user may not run it; grant the command and the scratch prefix's keys (docs/fleet-commands.md)"
	case "MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN":
		return "not tested: the scratch keys' slot moved or is moving; run conform again once the cluster has settled"
	case "READONLY", "MASTERDOWN", "NOREPLICAS":
		return "not tested: the node is no longer a writable primary"
	case "LOADING", "BUSY", "OOM", "NOAUTH", "WRONGPASS":
		return "not tested: the server could not run it now"
	}
	return ""
}

// missing reports whether an error reply means the server lacks the
// command or the option (DELIFEQ before 9.0, SET IFEQ before 8.1).
func missing(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "unknown command") || strings.Contains(m, "syntax error")
}

// lacking says, from the capability table, why a server of version v
// lacks c: " (not available on Redis: no Redis release has DELIFEQ)",
// " (not in Valkey 8.1.1: DELIFEQ needs Valkey 9.0+)"; "" when the table
// says it has it (renamed or disabled there).
func lacking(v rules.Version, c rules.Command) string {
	f, ok := c.Feature()
	switch {
	case v.IsZero() || !ok:
		return ""
	case rules.Supports(v, f):
		return " (renamed or disabled on this server)"
	}
	if _, any := rules.Since(f, v.Flavor); !any {
		return " (not available on " + v.Flavor.Title() + ": no " + v.Flavor.Title() + " release has " + c.Title() + ")"
	}
	return " (not in " + report.ServerName(string(v.Flavor), v.Number()) + ": " + c.Title() + " needs " + rules.Requirement(f) + ")"
}

// remedy is what works on a server of version v that lacks c, worded by
// the report from the capability table.
func remedy(who string, v rules.Version, c rules.Command) string {
	f, ok := c.Feature()
	if !ok {
		f = rules.Lua
	}
	return report.Remedy(who, v.String(), v, f, "")
}

// stepRow is a row as conform makes it, with what its finding is worded
// from kept as values, apart from the notes the row's cells add, so row
// never parses a cell back: a replica row's primary state (its Expected
// adds "as on the primary") and an "if promoted" row's source (its
// Command adds promotedNote).
type stepRow struct {
	report.ConformStep
	primary string // StepReplicated: what the primary holds
	source  string // StepIfPromoted: where the probe read the answer
}

// row adds a row to a table; a fail or missing is an LA213 finding, whose
// subject is the row's step.
func (t *tester) row(table *report.ConformNode, st stepRow) {
	table.Steps = append(table.Steps, st.ConformStep)
	if table == t.table && t.opt.afterStep != nil {
		t.opt.afterStep(st.Step)
	}
	if st.Status != report.StepFail && st.Status != report.StepMissing {
		return
	}
	var msg string
	switch {
	case st.Kind == report.StepReplicated:
		msg = fmt.Sprintf("replica (%s) did not apply the write as its primary did: after %q it holds %s, the primary %s", table.Server, st.After, st.Got, st.primary)
		if st.After == trapStep {
			msg += " (a SET IFEQ without PX reaches replicas verbatim and a replica before 8.1 rejects it: always extend with PX)"
		}
	case st.Kind == report.StepIfPromoted:
		msg = fmt.Sprintf("replica (%s) can be promoted but lacks %s (%s: %s)", table.Server, st.Uses.Title(), st.source, st.Got)
	case st.Status == report.StepMissing:
		msg = fmt.Sprintf("%s (%s) lacks the step %q: %s answered %s", table.Role, table.Server, st.Step, st.Command, st.Got)
	default:
		msg = fmt.Sprintf("%s (%s), step %q: %s answered %s; documented: %s", table.Role, table.Server, st.Step, st.Command, st.Got, st.Expected)
	}
	if st.Advice != "" {
		msg += "; what works there: " + st.Advice
	}
	r := rules.MustGet(rules.LA213)
	t.findings = append(t.findings, report.Finding{Rule: r.ID, Severity: r.Severity, Node: table.Node, Subject: st.Step, Message: msg})
}

// replicated waits for the replicas to acknowledge the last write, then
// reads the keys on the primary and on every replica: each replica must
// hold what the primary holds (same value, TTL set or not).
func (t *tester) replicated(step string, keys ...string) {
	if t.broken || len(keys) == 0 || len(t.replicas) == 0 {
		return
	}
	acked := -1
	if v, err := t.send([]string{"WAIT", strconv.Itoa(len(t.replicas)), strconv.FormatInt(t.opt.WaitTimeout.Milliseconds(), 10)}); err == nil && v.Kind == resp.Int {
		acked = int(v.Int)
	}
	var cmds [][]string
	for _, k := range keys {
		cmds = append(cmds, []string{"GET", t.keys[k]}, []string{"PTTL", t.keys[k]})
	}
	pvs, err := t.sendAll(cmds)
	if err != nil {
		return
	}
	want := t.state(keys, pvs)
	for _, r := range t.replicas {
		if r.c == nil {
			continue
		}
		st := stepRow{ConformStep: report.ConformStep{Step: "after " + step, Kind: report.StepReplicated, After: step, Command: "GET/PTTL " + strings.Join(keys, ", "), Expected: want + " (as on the primary)"}, primary: want}
		rvs, err := r.c.DoAll(t.ctx, cmds)
		switch {
		case err != nil:
			st.Got, st.Status = err.Error(), report.StepError
		case refused(rvs) != "":
			st.Got, st.Status = t.state(keys, rvs)+" ("+refused(rvs)+")", report.StepError
		case t.state(keys, rvs) == want:
			st.Got, st.Status = t.state(keys, rvs), report.StepPass
		case acked < len(t.replicas):
			st.Got, st.Status = t.state(keys, rvs)+fmt.Sprintf(" (WAIT: %d of %d replicas acknowledged in time)", acked, len(t.replicas)), report.StepError
		default:
			st.Got, st.Status = t.state(keys, rvs), report.StepFail
		}
		t.row(r.table, st)
	}
}

// refused says why the first reply a server refused for a reason that is
// not the lock pattern's leaves a read not tested (notTested), or "".
func refused(vs []resp.Value) string {
	for _, v := range vs {
		if v.Kind == resp.Err && notTested(v.Str) != "" {
			return notTested(v.Str)
		}
	}
	return ""
}

// state describes the keys' values and whether they have a TTL.
func (t *tester) state(keys []string, vs []resp.Value) string {
	var parts []string
	for i, k := range keys {
		val, ttl := vs[2*i], vs[2*i+1]
		s := k + " = " + t.display(val)
		switch {
		case ttl.Kind != resp.Int:
			s += ", PTTL " + ttl.String()
		case ttl.Int == -2:
			s = k + " absent"
		case ttl.Int == -1:
			s += ", no TTL"
		default:
			s += ", TTL set"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// cleanup deletes every scratch key, on a context of its own so that it
// runs after an interrupt or the deadline too, and proves it on the
// primary and replicas. After an interrupt it has cleanupTimeout; else it
// ends with the run's deadline (the keys expire within -ttl anyway).
func (t *tester) cleanup() {
	if t.keys == nil {
		return
	}
	base := context.WithoutCancel(t.ctx)
	ctx, cancel := context.WithDeadline(base, t.end)
	if t.ctx.Err() != nil && !probe.DeadlinePassed(t.ctx) {
		ctx, cancel = context.WithTimeout(base, cleanupTimeout)
	}
	defer cancel()
	expire := " (every scratch key expires within -ttl " + t.opt.TTL.String() + ")"
	p := t.p
	if t.broken || t.ctx.Err() != nil { // the connection may be dead: a new one
		c, err := t.d.Dial(ctx, t.node.Addr, ClientName, scratchOnly(t.opt.Prefix, Writes))
		if err != nil {
			t.row(t.table, stepRow{ConformStep: report.ConformStep{Step: "cleanup", Kind: report.StepSetup, Command: "DEL every scratch key", Expected: "no scratch key left",
				Got: "could not reconnect: " + err.Error() + expire, Status: report.StepError}})
			return
		}
		defer c.Close()
		p = c
	}
	del := []string{"DEL"}
	var check [][]string
	for _, n := range keyNames {
		del = append(del, t.keys[n])
		check = append(check, []string{"PTTL", t.keys[n]})
	}
	cmds := append([][]string{del}, check...)
	vs, err := p.DoAll(ctx, cmds)
	got, status := "", ""
	switch {
	case err != nil:
		got, status = err.Error()+expire, report.StepError
	case vs[0].Kind == resp.Err && notTested(vs[0].Str) != "":
		got, status = "DEL: "+t.display(vs[0])+" ("+notTested(vs[0].Str)+")"+expire, report.StepError
	case vs[0].Kind == resp.Err:
		got, status = "DEL: "+t.display(vs[0])+expire, report.StepFail
	default:
		got, status = t.leftOver(vs[1:])
	}
	t.row(t.table, stepRow{ConformStep: report.ConformStep{Step: "cleanup", Kind: report.StepSetup, Command: "DEL " + t.opt.Prefix + "{…}:*; PTTL each", Expected: "no scratch key left", Got: got, Status: status}})
	if status != report.StepPass || len(t.replicas) == 0 {
		return
	}
	if _, err := p.Do(ctx, "WAIT", strconv.Itoa(len(t.replicas)), strconv.FormatInt(t.opt.WaitTimeout.Milliseconds(), 10)); err != nil {
		return
	}
	for _, r := range t.replicas {
		if r.c == nil {
			continue
		}
		vs, err := r.c.DoAll(ctx, check)
		got, status := "", ""
		if err != nil {
			got, status = err.Error(), report.StepError
		} else {
			got, status = t.leftOver(vs)
		}
		t.row(r.table, stepRow{ConformStep: report.ConformStep{Step: "after cleanup", Kind: report.StepReplicated, After: "cleanup", Command: "PTTL each scratch key", Expected: "no scratch key left", Got: got, Status: status}, primary: "no scratch key left"})
	}
}

// leftOver judges the cleanup's replies (PTTL of each scratch key, or
// DEL's error): none left passes; a key still there fails; a refusal
// (notTested) leaves it not tested.
func (t *tester) leftOver(vs []resp.Value) (got, status string) {
	got, status = "none left", report.StepPass
	for i, v := range vs {
		switch {
		case v.Kind == resp.Err && notTested(v.Str) != "":
			return t.display(v) + " (" + notTested(v.Str) + ")", report.StepError
		case v.Kind != resp.Int || v.Int != -2:
			got, status = keyNames[i]+" still there: "+t.display(v), report.StepFail
		}
	}
	return got, status
}

// promotion adds, for each replica a failover can promote, every command
// relied on that it would need as a primary, from what the probe read (a
// replica refuses writes, so the steps cannot be run there); one it
// lacks says what works on its release instead.
func (t *tester) promotion() {
	for _, r := range t.replicas {
		if r.node.Promotable == report.PromotableNo {
			continue
		}
		v := nodeVersion(r.node)
		for _, c := range t.uses {
			answer := r.node.Answer(c)
			st := stepRow{ConformStep: report.ConformStep{Step: "if promoted: " + promotedStep[c], Kind: report.StepIfPromoted, Uses: c,
				Command: promotedSource[c] + promotedNote, Expected: "present", Got: answer.String(),
				Status: map[report.Answer]string{report.Yes: report.StepPass, report.No: report.StepMissing, report.Unknown: report.StepError}[answer]},
				source: promotedSource[c]}
			if answer == report.No {
				st.Got += lacking(v, c)
				st.Advice = remedy(r.node.Addr, v, c)
			}
			t.row(r.table, st)
		}
	}
}

// promotedStep names each command's "if promoted" row.
var promotedStep = map[rules.Command]string{
	rules.UseDELIFEQ: "release (DELIFEQ)",
	rules.UseDELEX:   "release (DELEX)",
	rules.UseIFEQ:    "extend (SET IFEQ)",
	rules.UseLua:     "Lua",
}

// promotedNote follows the source of an "if promoted" row.
const promotedNote = " (read by the probe; a replica refuses writes)"

// promotedSource is what the probe read each answer from.
var promotedSource = map[rules.Command]string{
	rules.UseDELIFEQ: "COMMAND INFO DELIFEQ",
	rules.UseDELEX:   "COMMAND INFO DELEX",
	rules.UseIFEQ:    "COMMAND DOCS SET",
	rules.UseLua:     "COMMAND INFO EVAL, INFO scriptingengines",
}

// nodeVersion is a node's release, zero when unknown.
func nodeVersion(n report.Node) rules.Version {
	v, err := rules.ParseVersion(rules.Flavor(n.Server), n.Version)
	if err != nil {
		return rules.Version{}
	}
	return v
}

// usesText lists the commands relied on: "relied on: DELIFEQ, SET IFEQ".
func usesText(cs []rules.Command) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Title())
	}
	return "relied on: " + strings.Join(names, ", ")
}

// show writes a command for the table: scratch keys by their short name,
// tokens by theirs.
func (t *tester) show(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		for n, k := range t.keys {
			if a == k {
				out[i] = n
			}
		}
		if name, ok := t.tokens[a]; ok {
			out[i] = name
		}
	}
	return strings.Join(out, " ")
}

// display writes a reply for the table, tokens by name.
func (t *tester) display(v resp.Value) string {
	switch v.Kind {
	case resp.Str:
		if name, ok := t.tokens[v.Str]; ok {
			return name
		}
		if len(v.Str) <= 40 && strconv.Quote(v.Str) == `"`+v.Str+`"` {
			return v.Str
		}
	case resp.Array:
		var parts []string
		for _, e := range v.Elems {
			parts = append(parts, t.display(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case resp.Nil:
		return "nil"
	case resp.Err: // the arguments the server quotes back are ours, and long
		msg, _, _ := strings.Cut(v.Str, ", with args beginning with")
		return msg
	}
	s := v.String()
	for tok, name := range t.tokens {
		s = strings.ReplaceAll(s, tok, name)
	}
	return s
}

func isOK(v resp.Value) bool  { return v.Kind == resp.Str && v.Str == "OK" }
func isNil(v resp.Value) bool { return v.Kind == resp.Nil }
func isInt(n int64) func(resp.Value) bool {
	return func(v resp.Value) bool { return v.Kind == resp.Int && v.Int == n }
}

func text(v resp.Value, err error) string {
	if err != nil {
		return err.Error()
	}
	return v.String()
}

func serverName(n report.Node) string {
	if n.Version == "" {
		return "version unknown"
	}
	name := n.Server
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return name + " " + n.Version
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return hex.EncodeToString(b)
}

// ownSlots reads the slot ranges of the "myself" line of CLUSTER NODES.
func ownSlots(nodes string) ([][2]uint16, error) {
	for _, line := range strings.Split(nodes, "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || !strings.Contains(f[2], "myself") {
			continue
		}
		var out [][2]uint16
		for _, s := range f[8:] {
			if strings.HasPrefix(s, "[") { // a slot being imported or migrated
				continue
			}
			lo, hi, isRange := strings.Cut(s, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.ParseUint(lo, 10, 16)
			b, err2 := strconv.ParseUint(hi, 10, 16)
			if err1 != nil || err2 != nil || a > b || b > 16383 {
				return nil, fmt.Errorf("bad slot range %q", s)
			}
			out = append(out, [2]uint16{uint16(a), uint16(b)})
		}
		if len(out) == 0 {
			return nil, errors.New("this primary serves no slot")
		}
		sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
		return out, nil
	}
	return nil, errors.New(`no "myself" line`)
}

// crc16 is the cluster's key hash (CRC-16/XMODEM); the slot is crc16 % 16384.
func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
