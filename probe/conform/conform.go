// Package conform checks that a live fleet behaves as documented for the
// native lock pattern, by running it. It is the only part of lockaudit that
// writes, and only to scratch keys: on each primary it runs the six native
// steps (SET NX PX, MULTI SET NX + INCR fence, WAIT, SET IFEQ PX, DELIFEQ,
// DELEX where present) and the LA104 trap (SET IFEQ without PX, then the
// TTL restored) on keys under a random hash tag below a configurable
// prefix, compares every reply with the documented one, and after each
// write reads the keys on every replica (GET/PTTL) to prove the replicated
// effect: a replica older than 8.1 silently keeps the old value of a
// replicated SET IFEQ without PX.
//
// Every key it creates carries a short TTL (the trap's key holds none for
// the few milliseconds between the trap and its restore), and every key is
// deleted at the end, also after an error or an interrupt (the cleanup runs
// on a context of its own). Its connections refuse any command outside
// Writes/Reads and any key outside the prefix.
package conform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
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

// Defaults.
const (
	DefaultPrefix = "lockaudit:conform:"
	DefaultTTL    = 30 * time.Second
)

// cleanupTimeout bounds the cleanup, which runs even after an interrupt.
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
	if opt.TTL < time.Second {
		return nil, fmt.Errorf("the scratch TTL %s is too short for the steps to run", opt.TTL)
	}
	if opt.Probe.Timeout <= 0 {
		opt.Probe.Timeout = probe.DefaultTimeout
	}
	if opt.WaitTimeout <= 0 {
		opt.WaitTimeout = min(time.Second, opt.Probe.Timeout/3)
	}
	if opt.WaitTimeout >= opt.Probe.Timeout {
		return nil, fmt.Errorf("WAIT's timeout %s must be shorter than -timeout %s", opt.WaitTimeout, opt.Probe.Timeout)
	}
	if opt.Probe.Deadline <= 0 {
		opt.Probe.Deadline = probe.DefaultDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Probe.Deadline)
	defer cancel()
	found, err := probe.Run(ctx, opt.Probe)
	if err != nil {
		return nil, err
	}
	run := report.New("conform", opt.Probe.Version)
	run.Topology = found.Topology
	if len(found.Errors) > 0 {
		run.Errors = found.Errors
		return run, nil
	}
	d := probe.NewDialer(opt.Probe)
	byAddr := map[string]report.Node{}
	for _, n := range found.Nodes {
		byAddr[n.Addr] = n
	}
	for _, n := range found.Nodes {
		switch n.Role {
		case probe.RolePrimary:
			t := &tester{ctx: ctx, opt: opt, d: d, node: n, cluster: found.Topology == probe.Cluster}
			for _, r := range found.Nodes {
				if r.Role == probe.RoleReplica && below(byAddr, r, n.Addr) {
					t.replicaNodes = append(t.replicaNodes, r)
				}
			}
			nodes, findings := t.run()
			run.Conform = append(run.Conform, nodes...)
			run.Findings = append(run.Findings, findings...)
		case probe.RoleReplica, probe.RoleSentinel:
		default:
			run.Conform = append(run.Conform, report.ConformNode{Node: n.Addr, Role: n.Role, Error: "its role could not be read, so it was not tested (" + strings.Join(n.Errors, "; ") + ")"})
		}
	}
	if ctx.Err() != nil {
		why := "interrupted"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			why = "the deadline (-deadline) passed"
		}
		run.Errors = append(run.Errors, report.Error{Where: "conform", Message: why + " before every step ran; the scratch keys were deleted (see the cleanup rows)"})
	}
	run.Sort()
	return run, nil
}

// below reports whether replica r replicates primary (directly or through
// other replicas).
func below(byAddr map[string]report.Node, r report.Node, primary string) bool {
	seen := map[string]bool{}
	for r.Role == probe.RoleReplica && r.Primary != "" && !seen[r.Addr] {
		if r.Primary == primary {
			return true
		}
		seen[r.Addr] = true
		next, ok := byAddr[r.Primary]
		if !ok {
			return false
		}
		r = next
	}
	return false
}

// tester runs the steps on one primary and reads its replicas.
type tester struct {
	ctx          context.Context
	opt          Options
	d            *probe.Dialer
	node         report.Node
	cluster      bool
	replicaNodes []report.Node

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
var keyNames = []string{"lock", "lock2", "fence", "gone", "lock3", "trap"}

func (t *tester) run() ([]report.ConformNode, []report.Finding) {
	t.table = &report.ConformNode{Node: t.node.Addr, Role: t.node.Role, Server: serverName(t.node), Steps: []report.ConformStep{}}
	var err error
	t.p, err = t.d.Dial(t.ctx, t.node.Addr, ClientName, scratchOnly(t.opt.Prefix, Writes))
	if err != nil {
		t.table.Error = "not tested: " + err.Error()
		return []report.ConformNode{*t.table}, nil
	}
	defer t.p.Close()
	for _, rn := range t.replicaNodes {
		r := &replica{node: rn, table: &report.ConformNode{Node: rn.Addr, Role: rn.Role, Server: serverName(rn), Primary: t.node.Addr, Steps: []report.ConformStep{}}}
		t.replicas = append(t.replicas, r)
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
		t.steps()
		t.cleanup()
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
			if v.Kind != resp.Int || v.Int != -2 {
				got, status = keyNames[i]+": "+v.String(), report.StepFail
				break
			}
		}
	}
	t.row(t.table, "scratch keys", "PTTL "+t.opt.Prefix+"{"+tag+"}:*", "-2 (none exists)", got, status)
	if status != report.StepPass {
		t.keys = nil // not ours: never deleted
		return errors.New("the scratch keys are not free: " + got)
	}
	return nil
}

// token returns a new random token, remembered under name for display.
func (t *tester) token(name string) string {
	v := randomHex(20)
	t.tokens[v] = "token " + name
	return v
}

func (t *tester) steps() {
	ttl := strconv.FormatInt(t.opt.TTL.Milliseconds(), 10)
	k := t.keys
	a, b, c, d, e, f := t.token("A"), t.token("B"), t.token("C"), t.token("D"), t.token("E"), t.token("F")

	t.one("acquire", "OK", []string{"SET", k["lock"], a, "NX", "PX", ttl}, isOK, "lock")
	t.one("acquire while held", "nil", []string{"SET", k["lock"], b, "NX", "PX", ttl}, isNil, "lock")

	fenceTx := func(tok string) [][]string {
		return [][]string{{"MULTI"}, {"SET", k["lock2"], tok, "NX", "PX", ttl}, {"INCR", k["fence"]}, {"PEXPIRE", k["fence"], ttl}, {"EXEC"}}
	}
	var fence int64
	t.tx("acquire + fence", "[OK, fence n >= 1, 1]", fenceTx(c), func(v resp.Value) bool {
		ok := v.Kind == resp.Array && len(v.Elems) == 3 && isOK(v.Elems[0]) && v.Elems[1].Kind == resp.Int && v.Elems[1].Int >= 1 && v.Elems[2].Kind == resp.Int && v.Elems[2].Int == 1
		if ok {
			fence = v.Elems[1].Int
		}
		return ok
	}, "lock2", "fence")
	t.tx("acquire + fence while held", "[nil, fence n+1, 1] (nil: not acquired; the fence still counts)", fenceTx(d), func(v resp.Value) bool {
		return v.Kind == resp.Array && len(v.Elems) == 3 && isNil(v.Elems[0]) && v.Elems[1].Kind == resp.Int && v.Elems[1].Int == fence+1
	}, "lock2", "fence")

	n := strconv.Itoa(len(t.replicas))
	t.one("replica ack", n+" (every replica acknowledged)", []string{"WAIT", n, strconv.FormatInt(t.opt.WaitTimeout.Milliseconds(), 10)},
		func(v resp.Value) bool { return v.Kind == resp.Int && strconv.FormatInt(v.Int, 10) == n })

	t.withTTL("extend", "OK, then PTTL > 0", []string{"SET", k["lock"], a, "IFEQ", a, "PX", ttl}, isOK, "lock", func(p int64) bool { return p > 0 })
	t.withTTL("extend a lost lock", "nil, then PTTL -2 (not created)", []string{"SET", k["gone"], a, "IFEQ", a, "PX", ttl}, isNil, "gone", func(p int64) bool { return p == -2 })
	t.one("release, stale token", "0", []string{"DELIFEQ", k["lock"], b}, isInt(0), "lock")
	t.withTTL("release", "1, then PTTL -2", []string{"DELIFEQ", k["lock"], a}, isInt(1), "lock", func(p int64) bool { return p == -2 })

	// DELEX where present (Valkey 9.2+, Redis 8.4+).
	if t.setup("DELEX setup", []string{"SET", k["lock3"], a, "NX", "PX", ttl}) {
		v, err := t.send([]string{"DELEX", k["lock3"], "IFEQ", b})
		if err == nil && v.Kind == resp.Err && strings.Contains(strings.ToLower(v.Str), "unknown command") {
			t.row(t.table, "DELEX release", "DELEX lock3 IFEQ token B / token A", "0, then 1", "unknown command: not in this server (Valkey 9.2+, Redis 8.4+)", report.StepSkipped)
		} else {
			t.judge("DELEX release, stale token", t.show([]string{"DELEX", k["lock3"], "IFEQ", b}), "0", v, err, isInt(0))
			t.one("DELEX release", "1", []string{"DELEX", k["lock3"], "IFEQ", a}, isInt(1), "lock3")
		}
	}

	// The LA104 trap: a successful SET IFEQ without PX drops the TTL and
	// reaches replicas verbatim; a replica older than 8.1 rejects it and
	// keeps the old value. The TTL is restored at once.
	if t.setup("trap setup", []string{"SET", k["trap"], e, "NX", "PX", ttl}) {
		t.withTTL("extend without PX (LA104 trap)", "OK, then PTTL -1 (the TTL is dropped)", []string{"SET", k["trap"], f, "IFEQ", e}, isOK, "trap", func(p int64) bool { return p == -1 })
		t.withTTL("TTL restored", "OK, then PTTL > 0", []string{"SET", k["trap"], f, "IFEQ", f, "PX", ttl}, isOK, "trap", func(p int64) bool { return p > 0 })
	}
}

// one sends a command, judges its reply, and reads the keys on replicas.
func (t *tester) one(step, expected string, args []string, ok func(resp.Value) bool, keys ...string) {
	if t.broken {
		return
	}
	v, err := t.send(args)
	t.judge(step, t.show(args), expected, v, err, ok)
	t.replicated(step, keys...)
}

// withTTL is one, then PTTL of key judged by ttlOK.
func (t *tester) withTTL(step, expected string, args []string, ok func(resp.Value) bool, key string, ttlOK func(int64) bool) {
	if t.broken {
		return
	}
	vs, err := t.sendAll([][]string{args, {"PTTL", t.keys[key]}})
	cmd := t.show(args) + "; PTTL " + key
	switch {
	case err != nil:
		t.judge(step, cmd, expected, resp.Value{}, err, ok)
	case !ok(vs[0]) || vs[0].Kind == resp.Err:
		t.judge(step, cmd, expected, vs[0], nil, ok)
	default:
		got := t.display(vs[0]) + ", PTTL " + vs[1].String()
		status := report.StepPass
		if vs[1].Kind != resp.Int || !ttlOK(vs[1].Int) {
			status = report.StepFail
		}
		t.row(t.table, step, cmd, expected, got, status)
	}
	t.replicated(step, key)
}

// tx sends a MULTI … EXEC batch and judges EXEC's reply.
func (t *tester) tx(step, expected string, cmds [][]string, ok func(resp.Value) bool, keys ...string) {
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
	}
	t.judge(step, strings.Join(shown, "; "), expected, exec, err, ok)
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
	t.judge(step, t.show(args), "OK", v, err, isOK)
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
// know the command or option) or error (no answer).
func (t *tester) judge(step, cmd, expected string, v resp.Value, err error, ok func(resp.Value) bool) {
	switch {
	case err != nil:
		t.row(t.table, step, cmd, expected, err.Error(), report.StepError)
	case v.Kind == resp.Err && missing(v.Str):
		t.row(t.table, step, cmd, expected, t.display(v), report.StepMissing)
	case ok(v) && v.Kind != resp.Err:
		t.row(t.table, step, cmd, expected, t.display(v), report.StepPass)
	default:
		t.row(t.table, step, cmd, expected, t.display(v), report.StepFail)
	}
}

// missing reports whether an error reply means the server lacks the
// command or the option (DELIFEQ before 9.0, SET IFEQ before 8.1).
func missing(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "unknown command") || strings.Contains(m, "syntax error")
}

// row adds a step to a table; a fail or missing is an LA213 finding.
func (t *tester) row(table *report.ConformNode, step, cmd, expected, got, status string) {
	table.Steps = append(table.Steps, report.ConformStep{Step: step, Command: cmd, Expected: expected, Got: got, Status: status})
	if table == t.table && t.opt.afterStep != nil {
		t.opt.afterStep(step)
	}
	if status != report.StepFail && status != report.StepMissing {
		return
	}
	var msg string
	switch {
	case strings.HasPrefix(step, "after "):
		msg = fmt.Sprintf("replica (%s) did not apply the write as its primary did: after %q it holds %s, the primary %s", table.Server, strings.TrimPrefix(step, "after "), got, strings.TrimSuffix(expected, " (as on the primary)"))
		if strings.Contains(step, "LA104") {
			msg += " (a SET IFEQ without PX reaches replicas verbatim and a replica before 8.1 rejects it: always extend with PX)"
		}
	case strings.HasPrefix(step, "if promoted: "):
		msg = fmt.Sprintf("replica (%s) can be promoted but lacks %s (%s: %s)", table.Server, strings.TrimPrefix(step, "if promoted: "), strings.Fields(cmd)[0]+" "+strings.Fields(cmd)[1]+" "+strings.Fields(cmd)[2], got)
	case status == report.StepMissing:
		msg = fmt.Sprintf("%s (%s) lacks the step %q: %s answered %s", table.Role, table.Server, step, cmd, got)
	default:
		msg = fmt.Sprintf("%s (%s), step %q: %s answered %s; documented: %s", table.Role, table.Server, step, cmd, got, expected)
	}
	r := rules.MustGet("LA213")
	t.findings = append(t.findings, report.Finding{Rule: r.ID, Severity: r.Severity, Node: table.Node, Message: msg})
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
		cmd := "GET/PTTL " + strings.Join(keys, ", ")
		expected := want + " (as on the primary)"
		rvs, err := r.c.DoAll(t.ctx, cmds)
		switch {
		case err != nil:
			t.row(r.table, "after "+step, cmd, expected, err.Error(), report.StepError)
		case t.state(keys, rvs) == want:
			t.row(r.table, "after "+step, cmd, expected, t.state(keys, rvs), report.StepPass)
		case acked < len(t.replicas):
			t.row(r.table, "after "+step, cmd, expected, t.state(keys, rvs)+fmt.Sprintf(" (WAIT: %d of %d replicas acknowledged in time)", acked, len(t.replicas)), report.StepError)
		default:
			t.row(r.table, "after "+step, cmd, expected, t.state(keys, rvs), report.StepFail)
		}
	}
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
// runs after an interrupt too, and proves it on the primary and replicas.
func (t *tester) cleanup() {
	if t.keys == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), cleanupTimeout)
	defer cancel()
	p := t.p
	if t.broken || t.ctx.Err() != nil { // the connection may be dead: a new one
		c, err := t.d.Dial(ctx, t.node.Addr, ClientName, scratchOnly(t.opt.Prefix, Writes))
		if err != nil {
			t.row(t.table, "cleanup", "DEL every scratch key", "no scratch key left", "could not reconnect: "+err.Error()+" (the keys expire within "+t.opt.TTL.String()+", but for a trap key caught without TTL)", report.StepError)
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
	got, status := "none left", report.StepPass
	if err != nil {
		got, status = err.Error(), report.StepError
	} else {
		for i, v := range vs[1:] {
			if v.Kind != resp.Int || v.Int != -2 {
				got, status = keyNames[i]+" still there: "+v.String(), report.StepFail
			}
		}
	}
	t.row(t.table, "cleanup", "DEL "+t.opt.Prefix+"{…}:*; PTTL each", "no scratch key left", got, status)
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
		got, status := "none left", report.StepPass
		if err != nil {
			got, status = err.Error(), report.StepError
		} else {
			for i, v := range vs {
				if v.Kind != resp.Int || v.Int != -2 {
					got, status = keyNames[i]+" still there: "+v.String(), report.StepFail
				}
			}
		}
		t.row(r.table, "after cleanup", "PTTL each scratch key", "no scratch key left", got, status)
	}
}

// promotion adds, for each replica a failover can promote, the steps it
// could not run as a primary, from what the probe read (a replica refuses
// writes, so they cannot be run there).
func (t *tester) promotion() {
	for _, r := range t.replicas {
		if r.node.Promotable == report.PromotableNo {
			continue
		}
		check := func(step, source string, answer report.Answer) {
			status := map[report.Answer]string{report.Yes: report.StepPass, report.No: report.StepMissing, report.Unknown: report.StepError}[answer]
			t.row(r.table, step, source+" (read by the probe; a replica refuses writes)", "present", answer.String(), status)
		}
		check("if promoted: extend (SET IFEQ)", "COMMAND DOCS SET", r.node.SetIFEQ)
		check("if promoted: release (DELIFEQ)", "COMMAND INFO DELIFEQ", r.node.DELIFEQ)
	}
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
