// Package scan finds locks that are already broken on a live fleet: keys
// matching the lock-key patterns (the config's lock_keys, the same as
// LA103's) that have no TTL (LA211) or a TTL longer than the maximum lease
// (LA212).
//
// It discovers the fleet with the probe's fleet core (probe.Collect and
// probe.Evaluate: the same discovery and the same completeness rule), then
// reads each primary's data — from a replica whose replication link is up
// when there is one, to keep the load off the primary — database by
// database (every one INFO keyspace lists), with SCAN, cursor by cursor,
// so memory does not grow with the keyspace. A fleet whose members are
// not all known (a cluster whose member list the user may not read) is
// reported incomplete, as the probe reports it unknown. Every command goes
// through the probe's dialer behind this package's own allowlist
// (Allowed): SCAN, DBSIZE, PTTL, TYPE, STRLEN, OBJECT IDLETIME, INFO
// keyspace, SELECT, plus ROLE, READONLY (cluster replicas) and CLIENT
// NO-TOUCH (so that reading a key does not reset its idle time). None of
// them writes.
package scan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockaudit/lockaudit/internal/safetext"
	"github.com/lockaudit/lockaudit/probe"
	"github.com/lockaudit/lockaudit/probe/internal/resp"
	"github.com/lockaudit/lockaudit/report"
	"github.com/lockaudit/lockaudit/rules"
)

// ClientName is the connection name scan sets (CLIENT LIST shows it).
const ClientName = "lockaudit-scan"

// Allowed is every command scan sends after discovery; the probe's
// read-only allowlist covers discovery itself.
var Allowed = probe.Commands{
	"SCAN":     nil,
	"DBSIZE":   nil,
	"PTTL":     nil,
	"TYPE":     nil,
	"STRLEN":   nil,
	"OBJECT":   {"IDLETIME": true},
	"ROLE":     nil,
	"READONLY": nil,
	"CLIENT":   {"NO-TOUCH": true},
	"INFO":     {"KEYSPACE": true},
	"SELECT":   nil,
}

func allow(args []string) error { return Allowed.Check("scan", args) }

// Defaults.
const (
	DefaultCount = 1000
	DefaultRate  = 50000
	DefaultLimit = 1000
)

// A scan's limits (docs/reliability.md lists them for users): what it
// keeps does not grow with the keyspace nor with the length of key names,
// and a node cannot keep it scanning forever.
const (
	// MaxLimit is the most findings -limit may list; more are counted.
	MaxLimit = 10_000
	// MaxKeyShown is the most bytes of a key's name a finding shows: a
	// longer name is cut there, and the finding gives its length and the
	// start of its SHA-256 to find it by.
	MaxKeyShown = 256
	// A database's SCAN must return to cursor 0 within
	// CallsPerBatch × ⌈keys ÷ COUNT⌉ + CallsFloor calls, keys being the
	// database's key count (INFO keyspace, DBSIZE) when its scan began,
	// read again with DBSIZE when the calls run out; past them the
	// database is incomplete (a cursor that never ends, or a database
	// that grew more than that).
	CallsPerBatch = 10
	CallsFloor    = 1000
	// maxShown is the most bytes of a server's text (an error, a reply) a
	// note or finding quotes.
	maxShown = 200
)

// Options configure a scan.
type Options struct {
	// Probe is how to find and reach the fleet (addresses, credentials,
	// TLS, -timeout, -parallel); its Deadline (default the probe's) bounds
	// discovery, and Deadline below the whole scan.
	Probe probe.Options

	Patterns []string         // the lock-key patterns, for the report
	Match    []*regexp.Regexp // compiled Patterns (rules/config.File.LockKeyPatterns)
	MaxLease time.Duration    // LA212 threshold; 0: not checked
	Rate     int              // keys per second per node; 0: no limit
	Count    int              // SCAN COUNT (default DefaultCount)
	Deadline time.Duration    // the whole scan, discovery included; 0: none
	Limit    int              // findings listed (default DefaultLimit, at most MaxLimit); more are counted

	// Progress, when set, is called after every SCAN batch (one call at a
	// time).
	Progress func(Progress)

	// sleep waits for the rate limit (tests replace it).
	sleep func(ctx context.Context, d time.Duration) error
}

// Progress is how far a scan has got.
type Progress struct {
	Shards, Done int   // shards to scan, shards finished
	Keys, Total  int64 // keys scanned; keys on the nodes read (DBSIZE)
	Findings     int
}

// shard is one primary's data and the nodes that hold a copy of it.
type shard struct {
	primary    string
	replicas   []string // usable copies, direct replicas first
	cluster    bool
	unreadable string // why nothing can be read (role unknown, ...)
	// down says why the primary could not be reached at discovery, and
	// dead why each replica left out of replicas could not: neither is
	// dialled again.
	down string
	dead []string
}

// Run discovers the fleet and scans every shard. The error is for bad
// options only; what could not be read is in the run (an incomplete shard
// makes ExitCode 4, a fleet where no node answered has Errors: 1).
func Run(ctx context.Context, opt Options) (*report.Run, error) {
	if len(opt.Match) == 0 || len(opt.Match) != len(opt.Patterns) {
		return nil, errors.New("scan: no lock-key pattern")
	}
	if opt.Count <= 0 {
		opt.Count = DefaultCount
	}
	if opt.Limit <= 0 {
		opt.Limit = DefaultLimit
	}
	if opt.Limit > MaxLimit {
		return nil, fmt.Errorf("scan: -limit %d is over the most findings a scan lists, %d (more are counted)", opt.Limit, MaxLimit)
	}
	if opt.Rate < 0 {
		return nil, errors.New("scan: the rate must be 0 (no limit) or positive")
	}
	if opt.sleep == nil {
		opt.sleep = sleepCtx
	}
	opt.Probe = opt.Probe.Defaulted()
	if opt.Deadline > 0 { // the probe's one deadline: the scan stops early enough to write its report
		var cancel context.CancelFunc
		ctx, cancel = probe.WithDeadline(ctx, opt.Deadline)
		defer cancel()
		opt.Probe.Deadline = min(opt.Probe.Deadline, opt.Deadline)
	}
	col, err := probe.Collect(ctx, opt.Probe)
	if err != nil {
		return nil, err
	}
	found := probe.Evaluate(col.Facts, probe.EvalOptions{Topology: col.Topology})
	run := report.New("scan", opt.Probe.Version)
	run.Topology, run.Time, run.Probed = col.Topology, col.Time, col.Probed
	run.Scan = &report.Scan{Patterns: opt.Patterns, Rate: opt.Rate, Count: opt.Count, Shards: []report.ScanShard{}}
	if opt.MaxLease > 0 {
		run.Scan.MaxLease = opt.MaxLease.String()
	}
	if len(col.Errors) > 0 { // no node answered at all
		run.Errors = col.Errors
		return run, nil
	}
	shards := plan(found.Nodes, col.Topology, probe.Unreached(col.Facts))
	s := &scanner{opt: opt, d: probe.NewDialer(opt.Probe), prog: Progress{Shards: len(shards)}, seed: maphash.MakeSeed()}
	results := make([]result, len(shards))
	sem := make(chan struct{}, max(opt.Probe.Parallel, 1))
	var wg sync.WaitGroup
	for i, sh := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
				results[i] = s.shard(ctx, sh)
			case <-ctx.Done():
				results[i] = result{ScanShard: report.ScanShard{Primary: sh.primary, Note: "not scanned: " + probe.Stopped(ctx)}}
			}
			s.update(func(p *Progress) { p.Done++ })
		}()
	}
	wg.Wait()
	for _, r := range results {
		run.Scan.Shards = append(run.Scan.Shards, r.ScanShard)
		run.Findings = append(run.Findings, r.findings...)
	}
	// What discovery could not see: a primary nobody listed holds keys
	// too. Each gap is a shard not scanned, named as the probe names it.
	for _, g := range found.Fleet.Gaps {
		run.Scan.Shards = append(run.Scan.Shards, report.ScanShard{Primary: g.Node.Addr, Note: "members not all known, not scanned: " + g.What.Words(g.Node)})
	}
	redact(run, s.d.Redact)
	run.Sort()
	return run, nil
}

// redact removes the password from every text the scan wrote from what
// servers answered (key names included), as the probe does with its facts.
func redact(run *report.Run, r func(string) string) {
	for i := range run.Scan.Shards {
		sh := &run.Scan.Shards[i]
		sh.Note = r(sh.Note)
		for j := range sh.Databases {
			sh.Databases[j].Note = r(sh.Databases[j].Note)
		}
	}
	for i := range run.Findings {
		run.Findings[i].Message, run.Findings[i].Subject = r(run.Findings[i].Message), r(run.Findings[i].Subject)
	}
}

// plan groups the discovered nodes into shards: each primary with the
// replicas below it (replicas of replicas hold the same data). A node
// whose role is unknown is a shard of its own, read if it answers. A node
// the discovery could not reach (unreached: why) is not dialled again.
func plan(nodes []report.Node, topology string, unreached map[string]string) []shard {
	byAddr := map[string]report.Node{}
	for _, n := range nodes {
		byAddr[n.Addr] = n
	}
	top := func(n report.Node) (string, int) {
		seen := map[string]bool{}
		depth := 0
		for n.Role == probe.RoleReplica && n.Primary != "" && !seen[n.Addr] {
			seen[n.Addr] = true
			p, ok := byAddr[n.Primary]
			if !ok {
				return n.Primary, depth + 1
			}
			n, depth = p, depth+1
		}
		return n.Addr, depth
	}
	type cand struct {
		addr  string
		depth int
	}
	copies := map[string][]cand{}
	var out []shard
	for _, n := range nodes {
		switch n.Role {
		case probe.RolePrimary:
			out = append(out, shard{primary: n.Addr, cluster: topology == probe.Cluster})
		case probe.RoleReplica:
			p, depth := top(n)
			copies[p] = append(copies[p], cand{n.Addr, depth})
		case probe.RoleSentinel:
		}
	}
	// A node whose role is unknown is a primary when replicas point at it
	// (it is then read through them); otherwise a shard of its own.
	for _, n := range nodes {
		if n.Role != probe.RolePrimary && n.Role != probe.RoleReplica && n.Role != probe.RoleSentinel && len(copies[n.Addr]) == 0 {
			out = append(out, shard{primary: n.Addr, unreadable: "its role could not be read (" + strings.Join(n.Errors, "; ") + ")"})
		}
	}
	have := map[string]bool{}
	for _, sh := range out {
		have[sh.primary] = true
	}
	// Replicas whose primary is not among the nodes still hold its data.
	for p := range copies {
		if !have[p] {
			out = append(out, shard{primary: p, cluster: topology == probe.Cluster})
		}
	}
	for i := range out {
		cs := copies[out[i].primary]
		sort.Slice(cs, func(a, b int) bool {
			if cs[a].depth != cs[b].depth {
				return cs[a].depth < cs[b].depth
			}
			return cs[a].addr < cs[b].addr
		})
		for _, c := range cs {
			if why, ok := unreached[c.addr]; ok {
				out[i].dead = append(out[i].dead, "replica "+c.addr+": unreachable at discovery ("+why+")")
				continue
			}
			out[i].replicas = append(out[i].replicas, c.addr)
		}
		if why, ok := unreached[out[i].primary]; ok {
			out[i].down = why
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].primary < out[b].primary })
	return out
}

type scanner struct {
	opt Options
	d   *probe.Dialer

	mu     sync.Mutex
	prog   Progress
	listed int // findings listed so far (Options.Limit)

	seed maphash.Seed // of the digests of keys already reported (seen)
}

func (s *scanner) update(f func(*Progress)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.prog)
	if s.opt.Progress != nil {
		s.opt.Progress(s.prog)
	}
}

// list reports whether one more finding may be listed.
func (s *scanner) list() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listed >= s.opt.Limit {
		return false
	}
	s.listed++
	return true
}

type result struct {
	report.ScanShard
	findings []report.Finding
}

// shard picks the node to read (a connected replica, else the primary) and
// scans it to the end, or until the deadline.
func (s *scanner) shard(ctx context.Context, sh shard) result {
	r := result{ScanShard: report.ScanShard{Primary: sh.primary}}
	if sh.unreadable != "" {
		r.Note = "not scanned: " + sh.unreadable
		return r
	}
	skipped := sh.dead
	var c, stale *probe.Conn // stale: a replica whose link is down
	var staleAddr string
	for _, addr := range sh.replicas {
		rc, up, why := s.useReplica(ctx, addr, sh.cluster)
		switch {
		case rc != nil && up:
			c, r.ReadFrom, r.Role = rc, addr, probe.RoleReplica
		case rc != nil && stale == nil:
			stale, staleAddr = rc, addr
		case rc != nil:
			rc.Close()
		}
		if c != nil {
			break
		}
		skipped = append(skipped, "replica "+addr+": "+why)
	}
	if c == nil {
		var pc *probe.Conn
		var err error
		if sh.down != "" {
			err = errors.New("unreachable at discovery (" + sh.down + ")")
		} else {
			pc, err = s.d.Dial(ctx, sh.primary, ClientName, allow)
		}
		switch {
		case err == nil:
			c, r.ReadFrom, r.Role = pc, sh.primary, probe.RolePrimary
			if len(skipped) > 0 {
				r.Note = "read on the primary: " + strings.Join(skipped, "; ")
			}
		case stale != nil: // the last copy there is: what a failover would promote
			c, r.ReadFrom, r.Role = stale, staleAddr, probe.RoleReplica
			stale = nil
			r.Note = "primary unreachable (" + err.Error() + "); read on a replica whose replication link is down: it may lag"
		default:
			r.Note = "not scanned: primary " + sh.primary + ": " + err.Error()
			if len(skipped) > 0 {
				r.Note += "; " + strings.Join(skipped, "; ")
			} else {
				r.Note += "; no replica to read instead"
			}
			return r
		}
	}
	if stale != nil {
		stale.Close()
	}
	defer c.Close()
	if err := s.read(ctx, c, sh, &r); err != nil {
		why := err.Error()
		if ctx.Err() != nil {
			why = probe.Stopped(ctx)
		}
		r.Note = strings.TrimPrefix(r.Note+"; "+fmt.Sprintf("stopped after %d keys: %s", r.Keys, why), "; ")
	}
	if r.Findings > len(r.findings) {
		more := fmt.Sprintf("%s over the listing limit (-limit %d) not listed", report.Plural(r.Findings-len(r.findings), "finding"), s.opt.Limit)
		r.Note = strings.TrimPrefix(r.Note+"; "+more, "; ")
	}
	return r
}

// useReplica connects to a replica; up says whether its replication link
// is up (ROLE says connected). A cluster replica is put in READONLY mode
// so that it answers for its primary's keys.
func (s *scanner) useReplica(ctx context.Context, addr string, cluster bool) (c *probe.Conn, up bool, why string) {
	c, err := s.d.Dial(ctx, addr, ClientName, allow)
	if err != nil {
		return nil, false, err.Error()
	}
	v, err := c.Do(ctx, "ROLE")
	if err != nil {
		c.Close()
		return nil, false, err.Error()
	}
	state, ok := replicaState(v)
	if !ok {
		c.Close()
		return nil, false, "not a replica (ROLE: " + short(v.String()) + ")"
	}
	if cluster {
		if v, err := c.Do(ctx, "READONLY"); err != nil || v.Kind == resp.Err {
			c.Close()
			return nil, false, "READONLY refused: " + short(errText(v, err))
		}
	}
	if state != "connected" {
		return c, false, "replication link not up (ROLE state " + short(state) + ")"
	}
	return c, true, ""
}

// replicaState reads a replica's ROLE reply: "slave", host, port, state, offset.
func replicaState(v resp.Value) (string, bool) {
	if v.Kind != resp.Array || len(v.Elems) < 4 {
		return "", false
	}
	if kind, _ := v.Elems[0].Text(); kind != "slave" {
		return "", false
	}
	return v.Elems[3].Text()
}

// read scans one node to the end: every database INFO keyspace lists, one
// after the other (SELECT), each to SCAN's cursor 0. Where INFO keyspace
// cannot be read, database 0 is scanned and the shard stays incomplete:
// the other databases are unknown.
func (s *scanner) read(ctx context.Context, c *probe.Conn, sh shard, r *result) error {
	// Without NO-TOUCH, STRLEN would reset the key's idle time; servers
	// without it (before Valkey/Redis 7.2) get no STRLEN.
	noTouch := false
	if v, err := c.Do(ctx, "CLIENT", "NO-TOUCH", "ON"); err != nil {
		return err
	} else if v.Kind != resp.Err {
		noTouch = true
	}
	dbs, unknown, err := databases(ctx, c)
	if err != nil {
		return err
	}
	var total int64
	for _, d := range dbs {
		total += d.keys
	}
	if unknown != "" { // INFO keyspace refused: DBSIZE of database 0
		if v, err := c.Do(ctx, "DBSIZE"); err != nil {
			return err
		} else if v.Kind == resp.Int {
			total, dbs[0].keys = v.Int, v.Int
		}
	}
	s.update(func(p *Progress) { p.Total += total })
	selected := 0
	complete := unknown == ""
	defer func() { r.Complete = complete }()
	for _, d := range dbs {
		r.Databases = append(r.Databases, report.ScanDB{DB: d.db})
		db := &r.Databases[len(r.Databases)-1]
		if d.db != selected {
			if v, err := c.Do(ctx, "SELECT", strconv.Itoa(d.db)); err != nil {
				complete = false
				return err
			} else if v.Kind == resp.Err {
				db.Note = "SELECT " + strconv.Itoa(d.db) + ": " + short(v.Str)
				complete = false
				continue
			}
			selected = d.db
		}
		if err := s.readDB(ctx, c, sh, r, db, d.keys, noTouch); err != nil {
			complete = false
			return err
		}
		complete = complete && db.Complete
	}
	if unknown != "" {
		r.Note = strings.TrimPrefix(r.Note+"; "+unknown, "; ")
	}
	return nil
}

// keyspaceDB is one database INFO keyspace lists.
type keyspaceDB struct {
	db   int
	keys int64
}

// databases reads INFO keyspace: the databases that hold keys, in order.
// When it cannot be read, database 0 alone, and unknown says why the
// others are not known.
func databases(ctx context.Context, c *probe.Conn) (dbs []keyspaceDB, unknown string, err error) {
	v, err := c.Do(ctx, "INFO", "keyspace")
	if err != nil {
		return nil, "", err
	}
	text, ok := v.Text()
	if v.Kind == resp.Err || !ok {
		why := short(v.String())
		if strings.HasPrefix(v.Str, "NOPERM") {
			why += " (grant the scan user +info)"
		}
		return []keyspaceDB{{db: 0}}, "INFO keyspace: " + why + ": only database 0 was scanned, the others are unknown", nil
	}
	dbs, err = parseKeyspace(text)
	if err != nil {
		return []keyspaceDB{{db: 0}}, "INFO keyspace: " + err.Error() + ": only database 0 was scanned, the others are unknown", nil
	}
	return dbs, "", nil
}

// parseKeyspace reads INFO keyspace's "db3:keys=1,expires=0,..." lines,
// sorted by database; a keyspace with no line holds no key.
func parseKeyspace(text string) ([]keyspaceDB, error) {
	var out []keyspaceDB
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		name, fields, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(name, "db") {
			continue
		}
		n, err := strconv.Atoi(name[2:])
		if err != nil || n < 0 || n > 1<<20 {
			return nil, fmt.Errorf("bad database %q", name)
		}
		d := keyspaceDB{db: n}
		for _, kv := range strings.Split(fields, ",") {
			if k, val, ok := strings.Cut(kv, "="); ok && k == "keys" {
				if d.keys, err = strconv.ParseInt(val, 10, 64); err != nil || d.keys < 0 {
					return nil, fmt.Errorf("bad key count in %q", line)
				}
			}
		}
		out = append(out, d)
		if len(out) > maxDatabases {
			return nil, fmt.Errorf("more than %d databases", maxDatabases)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].db < out[j].db })
	return out, nil
}

// maxDatabases bounds the databases one node may list.
const maxDatabases = 10000

// readDB scans the selected database to the end: to cursor 0, within
// maxCalls(keys) SCAN calls (keys: its key count when its scan began, read
// again when the calls run out). Each call is paced as at least COUNT keys:
// a call that returns none still had the server examine up to ten times
// COUNT slots.
func (s *scanner) readDB(ctx context.Context, c *probe.Conn, sh shard, r *result, db *report.ScanDB, keys int64, noTouch bool) error {
	pace := &pacer{rate: s.opt.Rate, start: time.Now(), sleep: s.opt.sleep, now: time.Now}
	seen := map[uint64]bool{} // digests of the finding keys already reported (SCAN may repeat a key)
	count := strconv.Itoa(s.opt.Count)
	cursor := "0"
	limit := maxCalls(keys, s.opt.Count)
	for calls := int64(0); ; calls++ {
		if calls == limit {
			// Out of calls: a cursor that never ends, or a database that
			// grew. Its size now decides.
			v, err := c.Do(ctx, "DBSIZE")
			if err != nil {
				return err
			}
			if v.Kind == resp.Int && maxCalls(v.Int, s.opt.Count) > calls {
				keys, limit = v.Int, maxCalls(v.Int, s.opt.Count)
			} else {
				db.Note = fmt.Sprintf("SCAN did not return to cursor 0 within %d calls (%d × ⌈%d keys ÷ COUNT %d⌉ + %d; DBSIZE now %s): the cursor may never end", calls, CallsPerBatch, keys, s.opt.Count, CallsFloor, short(v.String()))
				return nil
			}
		}
		if err := pace.wait(ctx); err != nil {
			return err
		}
		v, err := c.Do(ctx, "SCAN", cursor, "COUNT", count)
		if err != nil {
			return err
		}
		next, batch, err := parseScan(v)
		if err != nil {
			return err
		}
		pace.n += int64(max(len(batch), s.opt.Count))
		r.Keys += int64(len(batch))
		db.Keys += int64(len(batch))
		var matched []string
		for _, k := range batch {
			if s.matches(k) {
				matched = append(matched, k)
			}
		}
		r.LockKeys += int64(len(matched))
		db.LockKeys += int64(len(matched))
		found, err := s.check(ctx, c, sh, r.ReadFrom, r.Role, db.DB, matched, noTouch, seen)
		if err != nil {
			return err
		}
		for _, f := range found {
			r.Findings++
			db.Findings++
			if s.list() {
				r.findings = append(r.findings, f)
			}
		}
		s.update(func(p *Progress) {
			p.Keys += int64(len(batch))
			p.Findings += len(found)
		})
		if cursor = next; cursor == "0" {
			db.Complete = true
			return nil
		}
	}
}

// maxCalls is the most SCAN calls a database of keys keys may take:
// CallsPerBatch × ⌈keys ÷ count⌉ + CallsFloor.
func maxCalls(keys int64, count int) int64 {
	batches := (max(keys, 0) + int64(count) - 1) / int64(count)
	return CallsPerBatch*batches + CallsFloor
}

func (s *scanner) matches(key string) bool {
	for _, re := range s.opt.Match {
		if re.MatchString(key) {
			return true
		}
	}
	return false
}

// maxSeen bounds the memory spent on not reporting a key twice (SCAN may
// return a key more than once): past it, a repeated key is counted twice.
// A key is remembered by a digest of its name (8 bytes whatever its
// length).
const maxSeen = 100000

// check reads the TTL of each lock key in one round trip, then describes
// the bad ones (type, length, idle time) in one more.
func (s *scanner) check(ctx context.Context, c *probe.Conn, sh shard, from, role string, dbn int, keys []string, noTouch bool, seen map[uint64]bool) ([]report.Finding, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	cmds := make([][]string, len(keys))
	for i, k := range keys {
		cmds[i] = []string{"PTTL", k}
	}
	vs, err := c.DoAll(ctx, cmds)
	if err != nil {
		return nil, err
	}
	type bad struct {
		key  string
		pttl int64
	}
	var bads []bad
	for i, v := range vs {
		if v.Kind != resp.Int {
			return nil, fmt.Errorf("PTTL %s: %s", shownKey(keys[i]), short(v.String()))
		}
		h := maphash.String(s.seed, keys[i])
		if (v.Int == -1 || s.opt.MaxLease > 0 && v.Int > s.opt.MaxLease.Milliseconds()) && !seen[h] {
			if len(seen) < maxSeen {
				seen[h] = true
			}
			bads = append(bads, bad{keys[i], v.Int})
		}
	}
	if len(bads) == 0 {
		return nil, nil
	}
	// Idle time before STRLEN (NO-TOUCH keeps it anyway); TYPE first so
	// STRLEN is only sent for strings.
	cmds = cmds[:0]
	for _, b := range bads {
		cmds = append(cmds, []string{"OBJECT", "IDLETIME", b.key}, []string{"TYPE", b.key})
	}
	vs, err = c.DoAll(ctx, cmds)
	if err != nil {
		return nil, err
	}
	var strs [][]string
	var strAt []int
	types := make([]string, len(bads))
	for i := range bads {
		types[i], _ = vs[2*i+1].Text()
		types[i] = short(types[i])
		if types[i] == "string" && noTouch {
			strs = append(strs, []string{"STRLEN", bads[i].key})
			strAt = append(strAt, i)
		}
	}
	lengths := make([]string, len(bads))
	if len(strs) > 0 {
		ls, err := c.DoAll(ctx, strs)
		if err != nil {
			return nil, err
		}
		for j, v := range ls {
			if v.Kind == resp.Int {
				lengths[strAt[j]] = fmt.Sprintf(" of %d bytes", v.Int)
			}
		}
	}
	var out []report.Finding
	for i, b := range bads {
		what := describe(types[i], lengths[i], noTouch, vs[2*i])
		where := fmt.Sprintf("read on %s %s", role, from)
		in := ""
		if dbn != 0 {
			in = fmt.Sprintf(" in database %d", dbn)
		}
		var f report.Finding
		switch {
		case types[i] == "none": // gone between SCAN and now
			continue
		case b.pttl == -1:
			f = finding(rules.LA211, sh.primary, "lock key %s%s has no TTL (PTTL -1): %s (%s)", shownKey(b.key), in, what, where)
		default:
			f = finding(rules.LA212, sh.primary, "lock key %s%s has a TTL of %s (PTTL %d ms), over the maximum lease %s: %s (%s)",
				shownKey(b.key), in, roundTTL(b.pttl), b.pttl, s.opt.MaxLease, what, where)
		}
		f.Subject = fmt.Sprintf("db%d/%s", dbn, keySubject(b.key))
		out = append(out, f)
	}
	return out, nil
}

// describe says what a key holds without its value: type, length, idle.
func describe(typ, length string, noTouch bool, idle resp.Value) string {
	s := typ + length
	if typ == "string" && length == "" && !noTouch {
		s += " (length not read: the server has no CLIENT NO-TOUCH, and STRLEN would reset the idle time)"
	}
	if idle.Kind == resp.Int {
		return s + ", idle " + (time.Duration(idle.Int) * time.Second).String()
	}
	return s + ", idle time unknown (OBJECT IDLETIME: " + short(idle.String()) + ")"
}

// shownKey is how a finding names a key: quoted, and when its name is
// longer than MaxKeyShown bytes, cut there (at a character boundary),
// followed by its length and the start of its SHA-256, so that what a
// scan keeps does not grow with key names and the key can still be found.
func shownKey(k string) string {
	cut, whole := cutKey(k)
	if whole {
		return strconv.Quote(k)
	}
	return fmt.Sprintf("%s… (its name cut to %d of %d bytes; SHA-256 %s)", strconv.Quote(cut), len(cut), len(k), digest(k))
}

// keySubject is a finding's subject for a key: its name, or its cut name
// and digest (two keys that share their first MaxKeyShown bytes differ).
func keySubject(k string) string {
	cut, whole := cutKey(k)
	if whole {
		return k
	}
	return cut + "…#" + digest(k)
}

// cutKey is k's first MaxKeyShown bytes at most, cut before a character;
// whole says it is all of k.
func cutKey(k string) (string, bool) { return safetext.Prefix(k, MaxKeyShown) }

// digest is the start of a key's SHA-256, in hex.
func digest(k string) string {
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:8])
}

// short is a server's text, cut to maxShown bytes: a note or finding
// quotes what a server said, never all of it.
func short(s string) string {
	cut, whole := safetext.Prefix(s, maxShown)
	if whole {
		return s
	}
	return cut + fmt.Sprintf("… (%d bytes)", len(s))
}

func roundTTL(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).Round(time.Second).String()
}

func finding(rule rules.ID, node, format string, args ...any) report.Finding {
	r := rules.MustGet(rule)
	return report.Finding{Rule: rule, Severity: r.Severity, Node: node, Message: fmt.Sprintf(format, args...)}
}

// parseScan reads SCAN's reply: [cursor, [keys...]].
func parseScan(v resp.Value) (string, []string, error) {
	if v.Kind == resp.Err {
		return "", nil, errors.New("SCAN: " + short(v.Str))
	}
	if v.Kind != resp.Array || len(v.Elems) != 2 || v.Elems[1].Kind != resp.Array {
		return "", nil, fmt.Errorf("SCAN: unexpected reply %s", short(v.String()))
	}
	cursor, ok := v.Elems[0].Text()
	if !ok {
		return "", nil, fmt.Errorf("SCAN: unexpected cursor %s", short(v.Elems[0].String()))
	}
	keys := make([]string, 0, len(v.Elems[1].Elems))
	for _, k := range v.Elems[1].Elems {
		s, ok := k.Text()
		if !ok {
			return "", nil, fmt.Errorf("SCAN: unexpected key %s", short(k.String()))
		}
		keys = append(keys, s)
	}
	return cursor, keys, nil
}

func errText(v resp.Value, err error) string {
	if err != nil {
		return err.Error()
	}
	return v.String()
}

// pacer keeps a node's scan at or below rate keys per second, measured from
// the start: before each batch it waits until the keys read so far are due
// (a SCAN call counts as at least COUNT keys: see readDB).
type pacer struct {
	rate  int
	start time.Time
	n     int64 // keys read so far
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

func (p *pacer) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.rate <= 0 || p.n == 0 {
		return nil
	}
	due := p.start.Add(time.Duration(float64(p.n) / float64(p.rate) * float64(time.Second)))
	if d := due.Sub(p.now()); d > 0 {
		return p.sleep(ctx, d)
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
