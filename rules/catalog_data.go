// Code generated from catalog.yaml by `go test ./rules -update`. DO NOT EDIT.

package rules

// The rule IDs, one constant per rule: code names a rule by these.
const (
	LA100 ID = "LA100" // bad-directive
	LA101 ID = "LA101" // lua-lock-script
	LA102 ID = "LA102" // lua-lock-library
	LA103 ID = "LA103" // plain-del-release
	LA104 ID = "LA104" // extend-without-ttl
	LA105 ID = "LA105" // ifeq-conflict
	LA106 ID = "LA106" // acquire-without-ttl
	LA107 ID = "LA107" // weak-lock-token
	LA108 ID = "LA108" // lost-lock-ignored
	LA109 ID = "LA109" // fence-outside-acquire
	LA110 ID = "LA110" // unfenced-write
	LA111 ID = "LA111" // fence-check-not-strict
	LA112 ID = "LA112" // command-needs-newer-server
	LA113 ID = "LA113" // fence-cross-slot
	LA114 ID = "LA114" // extend-without-owner-check
	LA115 ID = "LA115" // wait-reply-ignored
	LA201 ID = "LA201" // release-unavailable
	LA202 ID = "LA202" // extend-unavailable
	LA203 ID = "LA203" // lua-unavailable
	LA204 ID = "LA204" // failover-window-unbounded
	LA205 ID = "LA205" // lock-not-durable
	LA206 ID = "LA206" // lock-keys-evictable
	LA207 ID = "LA207" // clock-skew
	LA208 ID = "LA208" // evidence-missing
	LA209 ID = "LA209" // hidden-promotable-replica
	LA210 ID = "LA210" // server-flavor
	LA211 ID = "LA211" // permanent-lock
	LA212 ID = "LA212" // lease-over-maximum
	LA213 ID = "LA213" // conformance-step-failed
	LA214 ID = "LA214" // replica-not-in-sync
)

// catalog is every rule, sorted by ID.
var catalog = []Rule{
	{
		ID:       LA100,
		Name:     "bad-directive",
		Kind:     Code,
		Severity: Warning,
		Title:    "A //lockaudit directive is malformed, unjustified or stale",
		What: `A //lockaudit:ignore or //lockaudit:file-ignore comment that has no reason after " -- ",
names no rule or an unknown rule, or suppresses nothing (stale).
`,
		Why: `A suppression is a decision someone must be able to review: without a reason nobody can,
and a stale one hides the next real finding on that line.
`,
		Fix: `Write the rule and the reason: //lockaudit:ignore LA103 -- cache key, not a lock.
Delete directives that suppress nothing.
`,
		Bad: `rdb.Del(ctx, "lock:job") //lockaudit:ignore LA103
`,
		Good: `rdb.Del(ctx, "lock:job") //lockaudit:ignore LA103 -- admin reset endpoint, holder is dead
`,
	},
	{
		ID:       LA101,
		Name:     "lua-lock-script",
		Kind:     Code,
		Severity: Warning,
		Title:    "Lock step done in a Lua script",
		What: `A Lua script performs a lock step that has a native form on every target: a scripted
acquire (SET NX PX inside Lua), a compare-and-extend (GET == ARGV then
PEXPIRE/EXPIRE/PEXPIREAT/SET PX) or a compare-and-delete (GET == ARGV then DEL/UNLINK),
the last two only with lock evidence. Keys and tokens are followed through Lua locals;
the compared token may also be the id of an entry the script lists from the server (a
task id read from a sorted set, compared with the value of that task's lock key). It is
sent inline (EVAL, EVAL_RO) or defined as a script object (NewScript, NewLuaScript,
NewEvalScript, options.NewScript), also through the project's own wrappers of those and
from Lua text in a //go:embed file, also through another package's exported string
variable (the message names the file and line). A script that
another package's wrapper fixes and runs on its caller's key is reported at the call.
`,
		Why: `Lua is optional from Valkey 9.1 (it is a module; BUILD_LUA=no builds and some providers
have none), and EVALSHA answers NOSCRIPT after a restart or failover until the script is
loaded again. Where the fleet has a native command for a lock step, the script is a
dependency the lock does not need.
`,
		Fix: `Acquire with SET key token NX PX ttl; extend with SET key token IFEQ token PX ttl
(Valkey 8.1+, Redis 8.4+); release with DELIFEQ key token (Valkey 9.0+) or
DELEX key IFEQ token (Valkey 9.2+, Redis 8.4+), whichever every target has.
`,
		Bad: "var unlock = redis.NewScript(`if redis.call(\"get\", KEYS[1]) == ARGV[1] then\n  return redis.call(\"del\", KEYS[1]) else return 0 end`)\n",
		Good: `n, err := rdb.Do(ctx, "DELIFEQ", key, token).Int()
if err == nil && n == 0 { log.Print("lock was already lost") }
`,
		MinServers: []string{"valkey-8.1", "valkey-9.0"},
		Uses:       []string{"lock-evidence", "targets"},
	},
	{
		ID:       LA102,
		Name:     "lua-lock-library",
		Kind:     Code,
		Severity: Warning,
		Title:    "Lock library that does its lock steps in Lua",
		What: `A call into a lock library whose lock steps run as Lua scripts: redsync Mutex
Unlock/Extend, bsm/redislock Obtain/Refresh/Release/TTL, valkeylock and rueidislock
lockers (every step, acquire included), where every target has the step's native form
(an extend needs SET IFEQ; any other step a native release).
`,
		Why: `The application depends on Lua without a single EVAL in its own code: the lock breaks on a
server without a Lua engine or where EVAL is banned, and EVALSHA hits NOSCRIPT after a
failover.
`,
		Fix: "Use the native commands directly (SET NX PX, SET IFEQ PX, DELIFEQ) or make sure every node\nthat can become primary keeps Lua (check with `lockaudit probe -uses lua`).\n",
		Bad: `lock, err := redislock.Obtain(ctx, rdb, "lock:job", 30*time.Second, nil)
defer lock.Release(ctx)
`,
		Good: `ok, err := rdb.SetNX(ctx, "lock:{job}", token, 30*time.Second).Result()
// ... work ...
n, err := rdb.Do(ctx, "DELIFEQ", "lock:{job}", token).Int()
if err == nil && n == 0 { log.Print("lock:{job} was lost before release") }
`,
		MinServers: []string{"valkey-9.0"},
		Uses:       []string{"targets"},
	},
	{
		ID:       LA103,
		Name:     "plain-del-release",
		Kind:     Code,
		Severity: Error,
		Title:    "Lock released with a plain DEL",
		What: `DEL, UNLINK or GETDEL of a lock key: the same key expression (constant, variable, or
format) is taken by a SET NX with lock evidence in the same package, or its constant text
matches a lock-key pattern ("lock" as a word part by default). A GET compared with the
token and then a DEL, in two round trips, is one too, with a message of its own; so is a
Lua script that DELs a key it never compares, run on a lock key.
`,
		Why: `A plain DEL deletes whichever client's lock is there: after your lease expired and another
client acquired the lock, your DEL releases their lock. A GET check in an earlier round
trip does not help: the lock can expire and pass to another client between the check and
the DEL.
`,
		Fix: `Release with DELIFEQ key token (Valkey 9.0+) or DELEX key IFEQ token (Valkey 9.2+, Redis 8.4+),
whichever every target has, else with a Lua compare-and-delete; and check the reply: 0
means the lock was no longer yours.
`,
		Bad: `defer rdb.Del(ctx, "lock:report")
`,
		Good: `n, err := rdb.Do(ctx, "DELIFEQ", "lock:report", token).Int()
if err == nil && n == 0 { log.Print("lock:report was no longer ours") }
`,
		Uses: []string{"lock-evidence", "targets"},
	},
	{
		ID:       LA104,
		Name:     "extend-without-ttl",
		Kind:     Code,
		Severity: Error,
		Title:    "IFEQ extend without a TTL",
		What: `SET with IFEQ and no EX/PX/EXAT/PXAT (SetIFEQ with expiration 0, SetArgs Mode IFEQ without
a TTL, a builder Ifeq() with no expiry step, a raw SET ... IFEQ), or with KEEPTTL.
`,
		Why: `A successful SET drops the key's TTL, so the lock becomes permanent. Without a TTL the SET
also reaches replicas verbatim, and a replica older than 8.1 rejects it while the link stays
up: the replica silently keeps the old value. With KEEPTTL the old deadline stays, so the
extend does nothing.
`,
		Fix: `Give the extend the lease: SET key token IFEQ token PX ttl.
`,
		Bad: `rdb.SetIFEQ(ctx, key, token, token, 0)
`,
		Good: `rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)
`,
		MinServers: []string{"valkey-8.1", "redis-8.4"},
	},
	{
		ID:       LA105,
		Name:     "ifeq-conflict",
		Kind:     Code,
		Severity: Error,
		Title:    "IFEQ combined with NX, XX or client-side compression",
		What: `A SET that carries IFEQ together with NX or XX; or a SET IFEQ sent by a valkey-glide client
configured with client-side compression (WithCompressionConfiguration, not switched off).
`,
		Why: `The server answers ERR syntax error to IFEQ with NX or XX: the conditions are mutually
exclusive, so the command never runs. A glide client with compression stores the SET's
value compressed but sends the IFEQ comparison as it is, so an extend never matches the
token it stored (glide 2.6 rejects SET with IFEQ when compression is on).
`,
		Fix: `Use IFEQ alone to extend (it never creates a missing key) and NX alone to acquire; keep
compression off for the client that takes and extends locks.
`,
		Bad: `conn.Do("SET", key, token, "NX", "IFEQ", token, "PX", 30000)
`,
		Good: `conn.Do("SET", key, token, "IFEQ", token, "PX", 30000)
`,
		MinServers: []string{"valkey-8.1", "redis-8.4"},
	},
	{
		ID:       LA106,
		Name:     "acquire-without-ttl",
		Kind:     Code,
		Severity: Error,
		Title:    "Lock acquired without a TTL",
		What: `A lock acquire (a SET NX with lock evidence) with no expiry: SET NX without a TTL (SetNX
with expiration 0, a builder Nx() then Build(), raw SET k v NX), the SETNX command, or SET
NX/SETNX followed by a separate EXPIRE/PEXPIRE of the same key. A project's helper
that sends SETNX, then EXPIRE of the same key parameter, is one acquire at each call: a
lock taken through it is reported there, naming the helper's EXPIRE. Also a TTL in the
wrong unit, a lock that never expires in practice: a time.Duration sent as a raw EX/PX or
as a Lua acquire's TTL argument (go-redis writes it as nanoseconds), or a typed TTL that
multiplies a known duration by a unit again (lockTTL*time.Millisecond).
`,
		Why: `A client that crashes between the acquire and the release leaves a lock that never
expires; with a separate EXPIRE, a crash between the two commands does the same.
`,
		Fix: `Acquire and set the lease in one command: SET key token NX PX ttl.
`,
		Bad: `ok, _ := rdb.SetNX(ctx, "lock:job", token, 0).Result()
`,
		Good: `ok, _ := rdb.SetNX(ctx, "lock:job", token, 30*time.Second).Result()
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA107,
		Name:     "weak-lock-token",
		Kind:     Code,
		Severity: Error,
		Title:    "Lock token is not unique per acquisition",
		What: `The value written by a lock acquire (a SET NX with lock evidence, a scripted acquire) is a
constant, a hostname, a pid or goroutine id (also read by another package's helper),
a worker id, a time.Now-derived value, a math/rand
generator seeded with the time or a constant, math/rand's (v1) global source, or a value
drawn once and reused (a package-level value, a field only a constructor sets); followed
through locals, fields of local structs and helpers. A lock constructor's token parameter
(kept in the field its acquires write) is judged at each call, also from another package,
by the value passed. A literal in the Lua text (SET KEYS[1]
'1' NX EX 60) is reported where the claim is held as a lock: a name says lock, or the
package deletes, releases or renews the key; a mark left to expire (a dedup or cooldown
claim) is not. Strong, and not reported: crypto/rand,
random UUIDs (v4, v7), math/rand/v2's runtime-seeded functions, a ChaCha8 or PCG seeded from
crypto/rand. A reentrant lock (a same-owner re-acquire, a hold count) keeps its owner id
by design: it is reported only when that id is weak, not unique per owner.
`,
		Why: `The token is the only proof of ownership: when two clients (or two acquisitions) can write
the same token, a compare-and-delete or IFEQ extend cannot tell them apart.
`,
		Fix: `Draw 20 random bytes from crypto/rand (or a random v4 UUID) for every acquisition; for a
reentrant lock, draw the owner id from crypto/rand once per owner and keep the hold count
apart.
`,
		Bad: `rdb.SetNX(ctx, "lock:job", "1", 30*time.Second)
`,
		Good: `b := make([]byte, 20); rand.Read(b) // crypto/rand
rdb.SetNX(ctx, "lock:job", hex.EncodeToString(b), 30*time.Second)
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA108,
		Name:     "lost-lock-ignored",
		Kind:     Code,
		Severity: Warning,
		Title:    "Reply of an extend or release is not examined",
		What: `The reply of an extend or a release (SET IFEQ, DELIFEQ, DELEX, a Lua release or extend, a
library Extend/Refresh/Unlock/Release) is discarded, or only its error is checked while the
nil/0/false reply that means "lost" is never examined, or it is only compared in a way that
is never true (an interface{} reply, whose integers are int64, == the int 0). A Lua
compare-and-delete or compare-and-extend counts only with lock evidence, as for LA101: the
same shape on data (a status compare-and-set) loses no lock. A release or extend whose
script the caller passes to a wrapper that returns only the reply's error (return
rdb.Eval(...).Err()) is reported at the call, unless every reply of the script is a
status or an error (none says "lost").
`,
		Why: `A nil extend or a 0 release means the lock was already lost: another client may hold it.
Carrying on as if the lock were held is the bug the token exists to detect.
`,
		Fix: `Examine the reply: stop the work when an extend returns nil, and record an incident when a
release returns 0.
`,
		Bad: `if err := rdb.Do(ctx, "DELIFEQ", key, token).Err(); err != nil { return err }
`,
		Good: `n, err := rdb.Do(ctx, "DELIFEQ", key, token).Int()
if err != nil { return err }
if n == 0 { log.Printf("lock %s was lost before release", key) }
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA109,
		Name:     "fence-outside-acquire",
		Kind:     Code,
		Severity: Error,
		Title:    "Fencing counter drawn outside the acquire's transaction",
		What: `The fencing INCR/INCRBY is sent in a separate round trip from the SET NX it belongs to (same
function, but not in the same MULTI/EXEC).
`,
		Why: `A client can pause between the SET and the INCR and then draw a higher number than the next
holder, so the fence no longer orders the holders.
`,
		Fix: `Send SET key token NX PX ttl and INCR fence in one MULTI/EXEC (TxPipelined, DoMulti with
MULTI/EXEC, redigo Send MULTI ... Do EXEC, a glide atomic batch).
`,
		Bad: `ok, _ := rdb.SetNX(ctx, "lock:{job}", token, ttl).Result()
fence, _ := rdb.Incr(ctx, "fence:{job}").Result()
`,
		Good: `cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
  p.SetNX(ctx, "lock:{job}", token, ttl); p.Incr(ctx, "fence:{job}"); return nil })
`,
	},
	{
		ID:       LA110,
		Name:     "unfenced-write",
		Kind:     Code,
		Severity: Warning,
		Title:    "Write to a protected resource without a fencing token",
		What: `In a function that acquires a lock, a write to a protected resource (database/sql
Exec/ExecContext, pgx Exec, or a configured writer) between acquire and release whose
arguments carry no value derived from the fence counter, or any such write when the
function draws no fence at all.
`,
		Why: `A holder that pauses (GC, network) past its lease still writes after the next holder
took the lock. Only the resource can reject the stale write, and only if the write carries
the fence.
`,
		Fix: `Draw a fence with INCR in the acquire's MULTI and pass it to the write, which must check
it: UPDATE ... SET last_fence = $f WHERE id = $id AND last_fence < $f.
`,
		Bad: `db.ExecContext(ctx, "UPDATE invoices SET posted = true WHERE batch = $1", batch)
`,
		Good: `db.ExecContext(ctx, "UPDATE invoices SET posted = true, fence = $2 WHERE batch = $1 AND fence < $2", batch, fence)
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA111,
		Name:     "fence-check-not-strict",
		Kind:     Code,
		Severity: Error,
		Title:    "Fence predicate uses <= instead of <",
		What: `A constant SQL string passed to a writer in a lock-holding function compares a fence or
token column with <=.
`,
		Why: `A failover can lose the last INCR and issue the same fence number twice; a non-strict check
lets the second holder's write through.
`,
		Fix: `Compare strictly: WHERE last_fence < $f.
`,
		Bad: `UPDATE jobs SET fence = $1 WHERE id = $2 AND fence <= $1
`,
		Good: `UPDATE jobs SET fence = $1 WHERE id = $2 AND fence < $1
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA112,
		Name:     "command-needs-newer-server",
		Kind:     Code,
		Severity: Error,
		Title:    "Command needs a newer server than the target",
		What: `A native lock command used below the -target version: DELEX (Valkey 9.2, Redis 8.4), DELIFEQ
(Valkey 9.0; no Redis version has it), SET IFEQ (Valkey 8.1, Redis 8.4); also DELEX without a
condition (a plain DEL on Redis, an error on Valkey).
`,
		Why: `On an older node the command is unknown (or a syntax error): the release or extend fails at
run time, typically in the middle of a failover that promoted an old replica.
`,
		Fix: "Upgrade every node that can become primary first (check with `lockaudit probe`), or keep a\nguarded fallback for older servers, or raise -target once the fleet is upgraded.\n",
		Bad: `// -target valkey-8.1
rdb.Do(ctx, "DELIFEQ", key, token)
`,
		Good: `// -target valkey-9.0 (every promotable node runs 9.0+)
rdb.Do(ctx, "DELIFEQ", key, token)
`,
		MinServers: []string{"valkey-8.1", "valkey-9.0", "valkey-9.2", "redis-8.4"},
	},
	{
		ID:       LA113,
		Name:     "fence-cross-slot",
		Kind:     Code,
		Severity: Warning,
		Title:    "Lock and fence keys without a shared hash tag",
		What: `A lock key and a fence key used in one MULTI or one script without a shared hash tag.
`,
		Why: `In cluster mode the keys hash to different slots and the transaction fails with CROSSSLOT.
`,
		Fix: `Wrap the shared part in braces in both keys: "lock:{"+job+"}" and "fence:{"+job+"}".
`,
		Bad: `p.SetNX(ctx, "lock:"+job, token, ttl); p.Incr(ctx, "fence:"+job)
`,
		Good: `p.SetNX(ctx, "lock:{"+job+"}", token, ttl); p.Incr(ctx, "fence:{"+job+"}")
`,
		Uses: []string{"lock-evidence"},
	},
	{
		ID:       LA114,
		Name:     "extend-without-owner-check",
		Kind:     Code,
		Severity: Error,
		Title:    "Lock extended with PEXPIRE/EXPIRE",
		What: `PEXPIRE, EXPIRE, PEXPIREAT or EXPIREAT of a lock key (same lock-key definition as LA103),
except the EXPIRE that completes a TTL-less SETNX (LA106 reports that pair): a renew in a
loop or a goroutine, an EXPIRE after a GETSET takeover, an EXPIRE after a GET check in an
earlier round trip, a Lua script that expires a key it never compares, run on a lock key.
Also a SET without NX or IFEQ that re-writes the lock's token with a TTL outside the
acquire.
`,
		Why: `An expire extends whoever holds the lock now: after your lease ran out, it extends the next
holder's lock. A GET check in an earlier round trip does not help: the lock can change
hands between the check and the expire.
`,
		Fix: `Extend with SET key token IFEQ token PX ttl (Valkey 8.1+, Redis 8.4+) and check for nil;
where some target has no SET IFEQ, with a Lua compare-and-extend.
`,
		Bad: `rdb.PExpire(ctx, "lock:job", 30*time.Second)
`,
		Good: `err := rdb.SetIFEQ(ctx, "lock:job", token, token, 30*time.Second).Err()
if err == redis.Nil { return errLockLost }
`,
		Uses: []string{"lock-evidence", "targets"},
	},
	{
		ID:       LA115,
		Name:     "wait-reply-ignored",
		Kind:     Code,
		Severity: Warning,
		Title:    "Reply of WAIT/WAITAOF is discarded",
		What: `The reply of WAIT or WAITAOF (the number of replicas or AOFs that acknowledged) is discarded.
`,
		Why: `WAIT only narrows the failover window if the caller acts on a reply of 0: the lock then
exists only on the primary and is lost if it fails over now.
`,
		Fix: `Read the count and treat fewer acknowledgements than required as "not acquired".
`,
		Bad: `rdb.Wait(ctx, 1, 100*time.Millisecond)
`,
		Good: `if n, err := rdb.Wait(ctx, 1, 100*time.Millisecond).Result(); err != nil || n < 1 { release() }
`,
	},
	{
		ID:       LA201,
		Name:     "release-unavailable",
		Kind:     Node,
		Severity: Error,
		Title:    "A promotable node lacks the native release command",
		What: `A node that can become primary has no DELIFEQ (or no DELEX, when the code uses DELEX).
`,
		Why: `After a failover promotes it, every release answers "unknown command": locks are not
released and wait for their TTL.
`,
		Fix: `Upgrade the node (replicas first), set replica-priority 0 on it under Sentinel until it is
upgraded, or keep the Lua release until the whole fleet supports the command.
`,
		Bad: `replica 10.0.0.7:6379 Valkey 8.1.1, promotable, no DELIFEQ
`,
		Good: `every promotable node runs Valkey 9.0 or later
`,
		MinServers: []string{"valkey-9.0", "valkey-9.2", "redis-8.4"},
		Verdict:    "native_release",
		Declared:   true,
	},
	{
		ID:       LA202,
		Name:     "extend-unavailable",
		Kind:     Node,
		Severity: Error,
		Title:    "A promotable node lacks SET IFEQ",
		What: `A node that can become primary does not list IFEQ among SET's conditions.
`,
		Why: `The extend answers ERR syntax error on that node; as a replica it also silently rejects a
replicated SET IFEQ without PX and diverges from its primary.
`,
		Fix: `Upgrade the node to Valkey 8.1+ (Redis 8.4+) before the code extends with SET IFEQ.
`,
		Bad: `replica 10.0.0.8:6379 Valkey 8.0.1, promotable, SET without IFEQ
`,
		Good: `every promotable node runs Valkey 8.1 or later
`,
		MinServers: []string{"valkey-8.1", "redis-8.4"},
		Verdict:    "native_extend",
		Declared:   true,
	},
	{
		ID:       LA203,
		Name:     "lua-unavailable",
		Kind:     Node,
		Severity: Error,
		Title:    "A promotable node cannot run the code's Lua scripts",
		What: `The code relies on Lua (its own scripts or a lock library) and a node that can become
primary has no Lua engine (INFO scriptingengines engines_count:0) or EVAL is disabled.
`,
		Why: `Every scripted lock step fails there: no release, no extend, and for valkeylock no acquire.
`,
		Fix: `Move the lock to the native commands, or load the Lua module on every promotable node.
`,
		Bad: `9.1 node with engines_count:0 while the code releases with a Lua script
`,
		Good: `the code releases with DELIFEQ and needs no Lua
`,
		Verdict:  "lua",
		Declared: true,
	},
	{
		ID:       LA204,
		Name:     "failover-window-unbounded",
		Kind:     Node,
		Severity: Info,
		Title:    "Primary accepts writes with no replica acknowledging",
		What: `A primary with replicas has min-replicas-to-write 0.
`,
		Why: `An acquire acknowledged only by the primary is lost when that primary fails over before
replicating it; two clients can then hold the lock.
`,
		Fix: `Set min-replicas-to-write 1 (with min-replicas-max-lag), or WAIT after the acquire, and keep
a fencing check at the resource: these narrow the window, none closes it.
`,
		Bad: `min-replicas-to-write 0 on a primary with 2 replicas
`,
		Good: `min-replicas-to-write 1, min-replicas-max-lag 10
`,
		Recommends: []Recommendation{{"min-replicas-to-write", "1", "the primary refuses writes, lock acquires included, while no replica is connected and within min-replicas-max-lag", "the fleet has one replica that goes down for maintenance, and refused acquires are worse than a lock lost in a failover"}, {"min-replicas-max-lag", "10", "a replica lagging more than 10 seconds no longer counts: writes stop sooner when replicas fall behind", "replicas routinely lag more (large batch writes), and min-replicas-to-write is 0"}},
	},
	{
		ID:       LA205,
		Name:     "lock-not-durable",
		Kind:     Node,
		Severity: Info,
		Title:    "Locks do not survive a restart",
		What: `appendonly is no, or appendfsync is not always.
`,
		Why: `A primary that restarts without a replica taking over comes back without the locks it had
granted (or without the last second of them), and hands them out again.
`,
		Fix: `Enable appendonly with appendfsync always where a lost lock corrupts data, or delay restarts
by the maximum TTL.
`,
		Bad: `appendonly no
`,
		Good: `appendonly yes, appendfsync always
`,
		Recommends: []Recommendation{{"appendonly", "yes", "every write is appended to a file on disk; turning it on makes the server rewrite the file once (a fork and disk I/O)", "the disk is slow or shared, and the locks may be lost on a restart (they expire anyway)"}, {"appendfsync", "always", "every write waits for the disk (fsync) before the reply: throughput falls to what the disk can sync, often by an order of magnitude, and latency rises", "the server also serves heavy write traffic other than locks: give the locks a server of their own, or keep everysec (up to one second of writes lost on a crash)"}},
	},
	{
		ID:       LA206,
		Name:     "lock-keys-evictable",
		Kind:     Node,
		Severity: Warning,
		Title:    "Lock keys can be evicted",
		What: `maxmemory is set and maxmemory-policy is not noeviction. volatile-* policies evict exactly
the keys that have a TTL, which is every lock.
`,
		Why: `An evicted lock is released early while its holder still works: two holders.
`,
		Fix: `Keep locks on a node with maxmemory-policy noeviction (or no maxmemory).
`,
		Bad: `maxmemory 2gb, maxmemory-policy volatile-lru
`,
		Good: `maxmemory-policy noeviction
`,
		Recommends: []Recommendation{{"maxmemory-policy", "noeviction", "when memory is full, writes fail with an OOM error instead of evicting keys", "the server is also a cache that relies on eviction: give the locks a server of their own"}},
	},
	{
		ID:       LA207,
		Name:     "clock-skew",
		Kind:     Node,
		Severity: Warning,
		Title:    "Clocks of promotable nodes disagree",
		What: `The TIME of a promotable replica differs from its primary's by more than the threshold
(50 ms by default). Both are read against the probe's clock, with half of each round trip
taken off, so the probe host's own clock error cancels out.
`,
		Why: `TTLs reach replicas as absolute PXAT deadlines and each node expires keys by its own wall
clock: after a failover the new primary's clock decides when a lock ends.
`,
		Fix: `Synchronise clocks (NTP/chrony) and keep lock TTLs far above the skew.
`,
		Bad: `replica clock 800 ms ahead of the primary
`,
		Good: `every node within a few milliseconds
`,
	},
	{
		ID:       LA208,
		Name:     "evidence-missing",
		Kind:     Node,
		Severity: Warning,
		Title:    "A node or a fact could not be read",
		What: `A node could not be reached (refused, timeout, announced address not routable from here),
a fact could not be read on it (NOPERM, a renamed or disabled command, CONFIG blocked), or a
reply was refused because it broke the RESP framing or the probe's size limits; or the nodes
that can become primary are not all known (a replica whose primary was not probed, a cluster
whose members no node listed, replicas that name each other as primary, nodes past the
probe's node limit).
`,
		Why: `Unknown is not safe: the verdicts that need the missing fact stay unknown, and a node nobody
listed can be promoted all the same, so an incomplete discovery leaves every verdict unknown.
`,
		Fix: `Grant the probe user the read-only commands it needs (docs/reliability.md lists them), run the
probe from a host that reaches every node, seed it with the missing primary or another
cluster node, look at a node whose replies are refused (a proxy in the way?), or declare the
node in an inventory.
`,
		Bad: `CONFIG GET: ERR unknown command 'CONFIG'
replica 10.0.0.7:6379: its primary 10.0.0.5:6379 was not probed
`,
		Good: `every fact read on every node, every node that can become primary probed
`,
	},
	{
		ID:       LA209,
		Name:     "hidden-promotable-replica",
		Kind:     Node,
		Severity: Warning,
		Title:    "Promotable replica hidden from Sentinel",
		What: `A replica configured with replica-announced no is missing from SENTINEL REPLICAS but was
found through its primary's INFO replication.
`,
		Why: `Sentinel can still promote it; tools that list nodes through Sentinel never check it.
`,
		Fix: `Check it like any other replica, or give it replica-priority 0 if it must never be promoted.
`,
		Bad: `replica-announced no, replica-priority 100
`,
		Good: `replica-announced yes, or replica-priority 0
`,
	},
	{
		ID:       LA210,
		Name:     "server-flavor",
		Kind:     Node,
		Severity: Info,
		Title:    "Redis server in the fleet",
		What: `A node runs Redis, not Valkey.
`,
		Why: `No Redis version has DELIFEQ; DELEX and SET IFEQ need Redis 8.4, and Redis's DELEX without a
condition is a plain DEL.
`,
		Fix: `Release with DELEX key IFEQ token where every node runs Redis 8.4+ or Valkey 9.2+; otherwise
keep the Lua release or migrate the node to Valkey.
`,
		Bad: `redis_version:7.0.15 in a fleet whose code releases with DELIFEQ
`,
		Good: `every node runs Valkey 9.0+
`,
		MinServers: []string{"redis-8.4"},
		Declared:   true,
	},
	{
		ID:       LA211,
		Name:     "permanent-lock",
		Kind:     Node,
		Severity: Error,
		Title:    "Lock key without a TTL",
		What: `A key matching the lock-key patterns (lock_keys, the same as LA103's) has no TTL (PTTL -1).
lockaudit scan reports it with its type, its value's length (never the value) and its idle
time (OBJECT IDLETIME), read from a replica when one is reachable.
`,
		Why: `A lock without a TTL is held forever: the job behind it has silently stopped. It is the
fingerprint of an IFEQ extend without PX (LA104) or a SETNX whose EXPIRE never ran (LA106).
`,
		Fix: `Find the code that set it (LA104, LA106 in lockaudit vet), fix it, then delete the key once
you know its holder is gone (DELIFEQ with the value, or DEL after checking).
`,
		Bad: `lock:invoice-run  string of 40 bytes, PTTL -1, idle 3d4h
`,
		Good: `every lock key has a TTL no longer than the longest lease
`,
		FoundBy: "lockaudit scan",
	},
	{
		ID:       LA212,
		Name:     "lease-over-maximum",
		Kind:     Node,
		Severity: Warning,
		Title:    "Lock key's TTL exceeds the maximum lease",
		What: `A key matching the lock-key patterns has a TTL longer than the configured maximum lease
(scan.max_lease in .lockaudit.yaml, or -max-lease).
`,
		Why: `A lease far longer than the work it guards means a crashed holder blocks the job for that
long; it is often a unit mistake (EX where PX was meant: 30000 seconds instead of 30 s).
`,
		Fix: `Set the lease to a little more than the longest critical section and extend it while the
work runs (SET key token IFEQ token PX lease).
`,
		Bad: `SET lock:job TOKEN NX EX 30000   # 8 hours
`,
		Good: `SET lock:job TOKEN NX PX 30000   # 30 seconds, extended while working
`,
		FoundBy: "lockaudit scan",
	},
	{
		ID:       LA213,
		Name:     "conformance-step-failed",
		Kind:     Node,
		Severity: Error,
		Title:    "A native lock step does not behave as documented on this node",
		What: `lockaudit conform ran a step of the native lock pattern on a scratch key (SET NX PX, MULTI
SET NX + INCR fence, WAIT, SET IFEQ PX, DELIFEQ, DELEX, SET IFEQ without PX) and the reply, or
the effect it left on a replica, differed from the documented semantics; or a promotable
replica lacks a command the steps need.
`,
		Why: `Managed services, forks and old replicas can differ from the documentation. One wrong reply,
or a replica that silently keeps the old value of a replicated SET IFEQ, breaks mutual
exclusion after a failover.
`,
		Fix: `Upgrade the node named (replicas first), or keep the lock steps the node does support; always
extend with PX so that the SET reaches replicas as a plain SET PXAT.
`,
		Bad: `replica 10.0.0.8:6379 (Valkey 8.0.1) after SET IFEQ without PX: GET = old token
`,
		Good: `every step and every replica read as documented
`,
		FoundBy: "lockaudit conform",
	},
	{
		ID:       LA214,
		Name:     "replica-not-in-sync",
		Kind:     Node,
		Severity: Error,
		Title:    "A replica that can become primary is not in sync with its primary",
		What: `A replica that a failover can promote reports its replication link down
(INFO replication: master_link_status:down): it never synced, or stopped syncing, so it does
not hold the locks its primary holds. An older release under a newer primary (Redis 7.0
under Redis 8.6: "Can't handle RDB format version") cannot load the primary's snapshot and
retries forever.
`,
		Why: `Promoted, the replica knows none of the locks written since its link went down: every
holder's lock is gone at once, and the next acquire of each succeeds while its old holder
still works. The verdict names the replica, because it can become primary.
`,
		Fix: `Bring the link up: upgrade the replica to its primary's release (replicas first, then fail
over) or remove it from the replication set; until then keep it from being promoted
(replica-priority 0 under Sentinel, cluster-replica-no-failover yes in a cluster).
`,
		Bad: `replica redis 7.0.15 of a redis 8.6.3 primary: master_link_status:down, never up
`,
		Good: `every replica that can become primary: master_link_status:up
`,
	},
}

// definitions are the terms several rules rely on, in catalog order.
var definitions = []Definition{
	{
		Name:  "lock-evidence",
		Title: "Lock evidence",
		Text: `A SET NX looks the same whether it takes a lock or sets a flag, and a Lua
compare-and-delete looks the same whether it releases a lock or deletes data that is
unchanged. So a step is lock code only with evidence.

A SET NX or SETNX takes a lock when its key's text matches a lock-key pattern ("lock" or
"locks" as a word part by default; lock_keys in .lockaudit.yaml); or when the same key
shape has an owner-checked step in the package: a compare-and-delete (DELIFEQ, DELEX IFEQ,
a Lua release run with that key), a SET IFEQ or Lua compare-and-extend, a WATCH-guarded
MULTI, or a GET whose reply is compared with the value written or with another variable
(the token); or when the same key shape goes to a lock library; or when a fencing INCR
shares its MULTI; or when a name around it says lock, mutex, lease or leader: the
enclosing function or method, its receiver type, the package, an identifier in the key
(acquireLock, Mutex.Lock, package redislock, lockKey); for a call of the project's own
wrapper, also the wrapper's name, receiver type and package (Locker.TryLock). A key
template is named by its leading component: lockPrefix in fmt.Sprintf("%s:%d", lockPrefix,
id) says lock, a hole after a constant prefix does not ("queued:%d:%s" with lockKeySuffix).

A lock key is the key of such a SET NX, or a key whose text matches a lock-key pattern;
a DEL or EXPIRE that follows an owner check of its key in the same function (a GET
compared with a token), under a name that says lock, is a lock step too. Evidence is per
call: where a key builder is shared by a lock helper and generic helpers (serialKey(key)
in Lock and in a cache's Del), the acquire's key shape makes a DEL or EXPIRE of that
shape a lock step only in the acquire's own function or where the step's names say
lock, release, renew or extend; a generic helper whose key is its caller's (a parameter,
decorated by a key helper or a prefix) is judged at each call by the key passed.

A Lua script that acquires (SET NX with a TTL in Lua) and a lock library's acquire are lock
code by themselves. A Lua compare-and-delete or compare-and-extend is a lock's release or
extend when a key passed to one of its runs is a lock key, when a name at its definition
or at a run says lock, mutex, lease or leader, or when the package takes locks (a
scripted acquire, a lock library's acquire, a SET NX with evidence). A Lua set-if-absent
without NX (EXISTS == 0 then SET and PEXPIRE, a Redisson-style mutex's acquire) reads like
a cache fill: it is a lock's acquire only with evidence from the Go side, a lock-key
pattern, an owner-checked step or a lock library on its key, or a DEL or EXPIRE of its key
in the package with a name around either that says lock (Mutex.TryLock and Mutex.Unlock).

Not evidence: a plain DEL or an EXPIRE of the key (flags are cleared and markers expire
that way too), a GET compared with a constant (a state, not an owner). So a "paused" flag
that must persist until it is cleared, a dedup marker, a cache entry's set-if-absent and
a data compare-and-delete are left alone, and a client library's generic SETNX, MSETNX,
DEL or EVAL wrapper whose key is a parameter is not judged at the wrapper: it is judged
at each call, in its own package or another, by the key the caller passes and the names
around the call (a release helper run with "lock:" + id is a lock's release, the same
helper run with a cache key is not).
`,
	},
	{
		Name:  "targets",
		Title: "Advice on the -target list",
		Text: `Advice must work on every server of the -target list (the release lines of every node
that can become primary). A step is reported as having a native form only where every
target has that form: SET key token NX PX ttl everywhere; SET IFEQ from Valkey 8.1 and
Redis 8.4; DELIFEQ from Valkey 9.0 (no Redis version); DELEX key IFEQ token from Valkey
9.2 and Redis 8.4. Where some target has no native release (Redis before 8.4, Valkey
before 9.0, or a mix with no release command in common), a Lua compare-and-delete and a
lock library's Lua release are the correct release for that fleet: LA101 and LA102 do not
report them, and LA103 advises a Lua compare-and-delete. Where some target has no SET
IFEQ, a Lua compare-and-extend is the correct extend in the same way (LA101, LA102,
LA114). A scripted acquire is reported on every target. Upgrading every node that can
become primary and raising -target brings these findings back.
`,
	},
}
