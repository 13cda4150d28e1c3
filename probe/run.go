package probe

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockaudit/lockaudit/internal/secret"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// Run is lockaudit probe: it collects the fleet (Collect), evaluates it
// (Evaluate) and judges it for opt.Uses (join.Verdict), and returns the
// report, stamped with when the fleet was read. Without opt.Uses it judges
// the native path of the fleet's flavor (AssumedUses), and the report says
// the uses were assumed. Nodes that cannot be read are findings (LA208); a
// run where no node at all could be read, or that found more than
// MaxNodes nodes, has report errors (exit 1). The error is Collect's.
func Run(ctx context.Context, opt Options) (*report.Run, error) {
	col, err := Collect(ctx, opt)
	if err != nil {
		return nil, err
	}
	uses, from := opt.Uses, report.UsesNamed
	if len(uses) == 0 {
		uses, from = AssumedUses(col.Facts), report.UsesAssumed
	}
	var declared []report.Use
	for _, u := range uses {
		declared = append(declared, report.Use{Command: u})
	}
	ev := Evaluate(col.Facts, EvalOptions{Relied: uses, Skew: opt.Skew, Topology: col.Topology})
	run := report.New("probe", opt.Version)
	fleet := ev.Run(col.Topology, declared, false)
	run.Topology, run.Nodes, run.Findings, run.Verdict = fleet.Topology, fleet.Nodes, fleet.Findings, fleet.Verdict
	run.Uses, run.UsesFrom = declared, from
	run.Errors = col.Errors
	run.Time, run.Probed = col.Time, col.Probed
	run.Sort()
	return run, nil
}

// DefaultUses is the native lock path Valkey offers, DELIFEQ release and
// SET IFEQ extend: what lockaudit probe assumes the code relies on when
// neither -uses nor the config file says, unless every node is Redis.
var DefaultUses = []rules.Command{rules.UseDELIFEQ, rules.UseIFEQ}

// AssumedUses is the native lock path of the fleet's flavor: on a fleet
// whose data nodes all run Redis, DELEX release and SET IFEQ extend (Redis
// has no DELIFEQ); else DefaultUses.
func AssumedUses(nodes []Facts) []rules.Command {
	redis := false
	for _, f := range nodes {
		if f.Role == RoleSentinel || f.Version.IsZero() {
			continue
		}
		if f.Version.Flavor != rules.Redis {
			return DefaultUses
		}
		redis = true
	}
	if redis {
		return []rules.Command{rules.UseDELEX, rules.UseIFEQ}
	}
	return DefaultUses
}

// Collection is what Collect read: every node's facts, the topology, the
// errors that make the run incomplete (no node could be read, the node
// limit was passed), and when it was read.
type Collection struct {
	Facts    []Facts
	Topology string
	Errors   []report.Error
	// Probed is when the fleet was read; Time the end of it (RFC 3339),
	// as reports print "as of".
	Probed *report.Window
	Time   string
}

// Collect discovers the nodes from the seeds and reads them concurrently
// (at most Parallel at once, every node bounded by Timeout and the whole
// run by Deadline). At the deadline it stops and returns what it has:
// every node not read by then is unknown.
//
// The error is for bad options, and for an interrupted run: when ctx is
// canceled (Ctrl-C) before the run ends, Collect returns nothing and an
// error that wraps ctx's error (context.Canceled). Every connection goes
// through the dial function of netguard.From(ctx) when there is one.
func Collect(ctx context.Context, opt Options) (*Collection, error) {
	opt = opt.Defaulted()
	if err := opt.Check(); err != nil {
		return nil, err
	}
	start := time.Now()
	// The deadline covers the whole run: the crawl stops early enough to
	// leave time to judge what was read and write the report.
	parent := ctx
	reserve := Reserve(opt.Deadline)
	ctx, cancel := WithDeadline(ctx, opt.Deadline)
	defer cancel()

	redact := redactor(opt.Password)
	d := &dialer{user: opt.User, password: opt.Password, tls: opt.TLS, timeout: opt.Timeout, resp2: opt.RESP2, redact: redact, limits: replyLimits}
	cr := &crawler{d: d, master: opt.Master, sem: make(chan struct{}, opt.Parallel), seen: map[string]bool{}, results: map[string]*nodeResult{}, hints: map[string][]link{}, seeds: map[string]bool{}, dropped: map[string]int{}, progress: opt.Progress}
	for _, s := range opt.Sentinels {
		cr.seeds[normAddr(s)] = true
	}
	for _, a := range opt.Addrs {
		cr.seeds[normAddr(a)] = true
	}
	for _, s := range opt.Sentinels {
		cr.visit(ctx, normAddr(s), link{role: RoleSentinel, priority: -1, via: "-sentinel"})
	}
	for _, a := range opt.Addrs {
		cr.visit(ctx, normAddr(a), link{priority: -1, via: "command line"})
	}
	cr.wait(ctx, reserve/2)
	if err := parent.Err(); err != nil && context.Cause(parent) != errDeadline { // the caller's deadline (scan's, conform's) is no interruption
		return nil, fmt.Errorf("the probe was interrupted before it finished: %w", err)
	}

	facts, topology := cr.assemble(len(opt.Sentinels) > 0)
	for i := range facts {
		scrub(&facts[i], redact)
	}
	end := time.Now()
	col := &Collection{Facts: facts, Topology: topology, Probed: report.WindowOf(start, end), Time: end.UTC().Format(time.RFC3339)}
	for _, o := range cr.overflow {
		col.Errors = append(col.Errors, report.Error{Where: o.where, Message: fmt.Sprintf("%s: lockaudit probes at most %d nodes in one run (docs/reliability.md); probe the fleet in parts (one seed, Sentinel or cluster at a time)", o.what, MaxNodes)})
	}
	reached := 0
	for _, f := range facts {
		if f.reached() {
			reached++
		}
	}
	if reached == 0 {
		for _, f := range facts {
			for _, e := range f.Errors {
				col.Errors = append(col.Errors, report.Error{Where: f.Addr, Message: "could not be probed: " + e.String()})
			}
		}
	}
	return col, nil
}

// normAddr writes a user-given address the way servers report addresses.
func normAddr(a string) string {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return a
	}
	if p, err := strconv.Atoi(port); err == nil {
		if h := hostPort(host, p); h != "" {
			return h
		}
	}
	return a
}

// redactor returns a function that removes the password from text
// (secret.Redactor: every report redacts the same way).
func redactor(password string) func(string) string { return secret.Redactor(password) }

func scrub(f *Facts, redact func(string) string) {
	for i := range f.Errors {
		f.Errors[i].Reason = redact(f.Errors[i].Reason)
	}
	for i := range f.Evidence {
		f.Evidence[i].Answer = redact(f.Evidence[i].Answer)
	}
	for i := range f.Notes {
		f.Notes[i] = redact(f.Notes[i])
	}
	for k, v := range f.Config {
		f.Config[k] = redact(v)
	}
}

// crawler probes every node it hears of, once, at most cap(sem) at a time,
// and at most MaxNodes nodes.
type crawler struct {
	d      *dialer
	master string
	sem    chan struct{}
	wg     sync.WaitGroup
	seeds  map[string]bool // read-only once the crawl starts
	// haveView is set once a cluster node has answered CLUSTER NODES.
	haveView atomic.Bool

	progress func(probed, found int) // Options.Progress, under mu

	mu       sync.Mutex
	closed   bool // the run stopped waiting: later results are dropped
	order    []string
	seen     map[string]bool
	results  map[string]*nodeResult
	hints    map[string][]link
	dropped  map[string]int // node -> how many of the nodes it named were over MaxNodes
	overflow []overflow
}

// overflow is one way a fleet went past MaxNodes.
type overflow struct{ where, what string }

// visit records what l says about addr and probes addr if it is new.
func (c *crawler) visit(ctx context.Context, addr string, l link) {
	l.addr = addr
	if c.record(l) {
		c.launch(ctx, l)
	}
}

// recordAll records what a node's reply (from) says of each node it
// names, all at once, and returns the nodes new to the run: every node
// named is in the run before any is probed, so that a run that ends while
// they are still being launched still lists each (not probed).
func (c *crawler) recordAll(from string, links []link) []link {
	var fresh []link
	for _, l := range links {
		l.from, l.addr = from, normAddr(l.addr)
		if c.record(l) {
			fresh = append(fresh, l)
		}
	}
	return fresh
}

// record records what l says about l.addr, and reports whether the node
// is new to the run (and under MaxNodes): then it is to be launched.
func (c *crawler) record(l link) bool {
	addr := l.addr
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	if !c.seen[addr] && len(c.order) >= MaxNodes {
		if c.dropped[l.from]++; c.dropped[l.from] == 1 {
			where := l.from
			if where == "" {
				where = addr
			}
			c.overflow = append(c.overflow, overflow{where, fmt.Sprintf("more than %d nodes were found (%s named more)", MaxNodes, where)})
		}
		return false
	}
	c.hints[addr] = appendHint(c.hints[addr], l)
	if c.seen[addr] {
		return false
	}
	c.seen[addr] = true
	c.order = append(c.order, addr)
	return true
}

// launch probes a node record has just added, once a slot is free, or
// records it not probed when the run ends first.
func (c *crawler) launch(ctx context.Context, l link) {
	addr := l.addr
	if strings.HasSuffix(addr, "(no address)") {
		res := nodeResult{facts: newFacts(addr)}
		res.facts.Errors = []FactError{{Fact: FactConnect, Reason: "the cluster member announces no address (noaddr)"}}
		c.finish(ctx, addr, res)
		return
	}
	// A slot first, then a goroutine: a cluster of thousands waits as
	// addresses, not as thousands of goroutines.
	select {
	case c.sem <- struct{}{}:
		if ended(ctx) { // a slot freed by the end of the run is no slot
			<-c.sem
			c.finish(ctx, addr, notProbed(ctx, addr))
			return
		}
	case <-ctx.Done():
		c.finish(ctx, addr, notProbed(ctx, addr))
		return
	}
	seed := c.seeds[addr]
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		res := probeNode(ctx, c.d, addr, c.master, l, func() bool { return seed || !c.haveView.Load() },
			func(links []link, view bool) { c.announce(ctx, addr, links, view) })
		if res.view {
			c.haveView.Store(true)
		}
		<-c.sem
		c.finish(ctx, addr, res)
	}()
}

// announce records the nodes a node named before that node is read to the
// end (its cluster view, a Sentinel's primaries), and launches their
// probes from a goroutine of its own: the announcing node holds a slot,
// and its own probe must not wait for one.
func (c *crawler) announce(ctx context.Context, from string, links []link, view bool) {
	if view {
		c.haveView.Store(true) // the nodes named need not be asked for another view
	}
	fresh := c.recordAll(from, links)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for _, l := range fresh {
			c.launch(ctx, l)
		}
	}()
}

// finish records a node's result, then records and launches the nodes it
// named.
func (c *crawler) finish(ctx context.Context, addr string, res nodeResult) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.results[addr] = &res
	if res.overflow != "" {
		c.overflow = append(c.overflow, overflow{addr, res.overflow})
	}
	if c.progress != nil {
		c.progress(len(c.results), len(c.order))
	}
	c.mu.Unlock()
	for _, l := range c.recordAll(addr, res.links) {
		c.launch(ctx, l)
	}
}

// notProbed is the result of a node the run ended before.
func notProbed(ctx context.Context, addr string) nodeResult {
	res := nodeResult{facts: newFacts(addr)}
	res.facts.Errors = []FactError{{Fact: FactConnect, Reason: "not probed: " + Stopped(ctx)}}
	return res
}

// wait returns when every node has been probed, or at most grace after ctx
// ends (every probe watches ctx, so grace is rarely used up) with what has
// been read by then: a node still being probed is reported as not probed,
// and its result, if it comes later, is dropped.
func (c *crawler) wait(ctx context.Context, grace time.Duration) {
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		select {
		case <-done:
		case <-time.After(grace):
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, addr := range c.order {
		if c.results[addr] == nil {
			res := notProbed(ctx, addr)
			c.results[addr] = &res
		}
	}
}

// appendHint keeps one copy of each distinct hint (every cluster member
// repeats the same view).
func appendHint(hs []link, l link) []link {
	for _, h := range hs {
		if h.role == l.role && h.primary == l.primary && h.shard == l.shard && h.priority == l.priority &&
			h.noFailover == l.noFailover && h.master == l.master && h.listed == l.listed {
			return hs
		}
	}
	return append(hs, l)
}

// assemble merges each node's own facts with what other nodes said about
// it, folds duplicates (one server reached under two names), marks hidden
// replicas and decides the topology.
func (c *crawler) assemble(sentinelMode bool) ([]Facts, string) {
	// One server, two names: keep the first name, remember the other.
	canonical := map[string]string{}
	byRun := map[string]string{}
	for _, addr := range c.order {
		r := c.results[addr]
		if r.runID == "" {
			continue
		}
		if first, ok := byRun[r.runID]; ok {
			canonical[addr] = first
			c.results[first].facts.Notes = append(c.results[first].facts.Notes, "also reached as "+addr)
			c.hints[first] = append(c.hints[first], c.hints[addr]...)
			continue
		}
		byRun[r.runID] = addr
	}
	canon := func(a string) string {
		if x, ok := canonical[a]; ok {
			return x
		}
		return a
	}

	sentinelPrimaries, listed, replicasRead := map[string]bool{}, map[string]bool{}, map[string]bool{}
	modes := map[string]bool{}
	for _, addr := range c.order {
		r := c.results[addr]
		modes[r.mode] = true
		for a := range r.replicasRead {
			replicasRead[canon(a)] = true
		}
		for _, h := range c.hints[addr] {
			if h.master != "" {
				sentinelPrimaries[canon(addr)] = true
			}
			if h.listed {
				listed[canon(addr)] = true
			}
		}
	}
	topology := Standalone
	switch {
	case sentinelMode || modes["sentinel"]:
		topology = Sentinel
	case modes["cluster"]:
		topology = Cluster
	}

	var out []Facts
	for _, addr := range c.order {
		if _, dup := canonical[addr]; dup {
			continue
		}
		f := c.results[addr].facts
		f.Primary = canon(f.Primary)
		if n := c.dropped[addr]; n > 0 {
			f.Errors = append(f.Errors, FactError{Fact: FactDiscovery, Reason: fmt.Sprintf("%s it named %s not probed: the probe reads at most %d nodes", report.Plural(n, "node"), map[bool]string{true: "was", false: "were"}[n == 1], MaxNodes)})
		}
		for _, h := range c.hints[addr] {
			applyHint(&f, h, canon)
		}
		if topology == Sentinel && f.Role == RoleReplica && sentinelPrimaries[f.Primary] && replicasRead[f.Primary] && !listed[addr] {
			f.Hidden = true
			f.Notes = append(f.Notes, "not listed by SENTINEL REPLICAS (replica-announced no); found through "+f.Primary+"'s INFO replication")
		}
		if topology == Sentinel && f.Role == RoleReplica && f.Primary != "" && !sentinelPrimaries[f.Primary] {
			f.Notes = append(f.Notes, "replica of a replica: Sentinel does not promote it directly, but it follows its primary if that is promoted")
		}
		if topology != Sentinel && f.Role == RoleReplica && f.ReplicaPriority == 0 {
			f.Notes = append(f.Notes, "replica-priority 0: Sentinel would never promote it; probe with -sentinel to take that into account")
		}
		out = append(out, f)
	}
	// A replica belongs to its primary's shard (servers before 9.0 have no
	// shard IDs, so their own view names the shard differently).
	shardOf := map[string]string{}
	for _, f := range out {
		if f.Role == RolePrimary && f.Shard != "" {
			shardOf[f.Addr] = f.Shard
		}
	}
	for i, f := range out {
		if s, ok := shardOf[f.Primary]; ok && f.Role == RoleReplica {
			out[i].Shard = s
		}
	}
	if topology == Standalone {
		for _, f := range out {
			if f.Role == RoleReplica || f.Replicas > 0 {
				topology = Replication
			}
		}
	}
	if topology == Standalone && len(out) > 0 {
		reached := false
		for _, f := range out {
			reached = reached || f.reached()
		}
		if !reached {
			topology = RoleUnknown
		}
	}
	sortFacts(out)
	return out, topology
}

// applyHint fills what the node could not tell about itself from what
// another node said, and records where it came from.
func applyHint(f *Facts, h link, canon func(string) string) {
	used := false
	if (f.Role == RoleUnknown || f.Role == "") && h.role != "" {
		f.Role, used = h.role, true
	}
	if f.Primary == "" && h.primary != "" && f.Role == RoleReplica {
		f.Primary, used = canon(h.primary), true
	}
	if f.Shard == "" && h.shard != "" {
		f.Shard = h.shard
	}
	if f.ReplicaPriority < 0 && h.priority >= 0 {
		f.ReplicaPriority, used = h.priority, true
	}
	if f.NoFailover == report.Unknown && h.noFailover != report.Unknown {
		f.NoFailover, used = h.noFailover, true
	}
	if used && !f.reached() {
		f.Evidence = append(f.Evidence, report.Evidence{Command: h.via, Answer: describeHint(h)})
	}
}

func describeHint(h link) string {
	var parts []string
	if h.role != "" {
		parts = append(parts, h.role)
	}
	if h.primary != "" {
		parts = append(parts, "of "+h.primary)
	}
	if h.priority >= 0 {
		parts = append(parts, "replica-priority "+strconv.Itoa(h.priority))
	}
	if h.noFailover == report.Yes {
		parts = append(parts, "nofailover")
	}
	return strings.Join(parts, ", ")
}

// sortFacts orders nodes for reading: each replication group (a primary,
// then the replicas below it), groups by address; unknown nodes, then
// Sentinels, last.
func sortFacts(fs []Facts) {
	byAddr := map[string]Facts{}
	for _, f := range fs {
		byAddr[f.Addr] = f
	}
	type place struct {
		group string
		depth int
	}
	roots := make(map[string]place, len(fs))
	for _, f := range fs {
		top, depth, outside := chainTop(byAddr, f)
		if outside != "" {
			roots[f.Addr] = place{outside, depth + 1}
		} else {
			roots[f.Addr] = place{top.Addr, depth}
		}
	}
	root := func(f Facts) (string, int) {
		p := roots[f.Addr]
		return p.group, p.depth
	}
	rank := func(f Facts) int {
		switch f.Role {
		case RoleSentinel:
			return 2
		case RoleUnknown, "":
			if f.Primary == "" {
				return 1
			}
		}
		return 0
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if ri, rj := rank(fs[i]), rank(fs[j]); ri != rj {
			return ri < rj
		}
		gi, di := root(fs[i])
		gj, dj := root(fs[j])
		if gi != gj {
			return gi < gj
		}
		if di != dj {
			return di < dj
		}
		return fs[i].Addr < fs[j].Addr
	})
}
