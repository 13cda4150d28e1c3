// Package la101 defines an Analyzer that reports Lua scripts performing a
// lock step (rule LA101, lua-lock-script): compare-and-delete,
// compare-and-extend, or a scripted acquire, as classified by
// analyzers/internal/lua. The key and the token may reach the step through
// Lua locals (local key = KEYS[1]; local k = redis.call("HGET", KEYS[1],
// "f"); local v = redis.call("GET", k) ... v == ARGV[1]); a local holding
// a constant or anything else the caller did not pass makes no step.
//
// A script is reported once, where its text is: at the constructor of a
// script object (go-redis NewScript/NewScriptServerSHA, redigo NewScript,
// valkey-go/rueidis NewLuaScript*, radix NewEvalScript, glide
// options.NewScript, redsync's internal redis.NewScript), at a go-redis
// ScriptLoad whose SHA an EvalSha runs (the SHA kept in a local, a package
// variable or a struct field, every value of which is that load's reply or
// ""), at an EvalSha whose SHA is the SHA1 of a visible text computed in
// Go (hex of crypto/sha1's Sum, or a one-parameter helper of the package
// that hashes with crypto/sha1, given the text), or at the EVAL / EVAL_RO
// call that sends it inline. Script runs
// (Run, Exec, Do, EvalSha ...) are not reported again. Scripts whose text is not a constant visible in the
// package (built at run time, or defined in another package) are not
// reported; non-lock scripts (rate limiters, counters, queue pops, cache
// compare-and-set) are not either.
//
// Only the steps with a native form on every -target are reported (the
// catalog's "Advice on the -target list"): a scripted acquire always; a
// compare-and-extend where every target has SET IFEQ; a compare-and-delete
// where every target has one native release (DELIFEQ, or DELEX IFEQ).
// Elsewhere the Lua step is the correct one for the fleet. The message
// names the reported steps and their native commands for the target.
//
// A script that compares and deletes (or extends) without acquiring has
// the exact shape of a data compare-and-delete ("delete this entry only if
// its bytes are unchanged"); it is reported only with lock evidence
// (keys.ScriptEvidence): a key passed to one of its runs is a lock key, a
// name at its definition or a run says lock, mutex, lease or leader, or the
// package takes locks.
//
// A guarded set (EXISTS == 0 then SET and PEXPIRE, lua.Detail.Guarded: a
// Redisson-style mutex's acquire without NX) reads like a cache fill with
// a TTL; it is reported as a scripted acquire only with lock evidence from
// the Go side (keys.GuardedEvidence): a lock-key pattern, an owner-checked
// step or a lock library on its key, or a DEL or EXPIRE of its key in the
// package with a name around either that says lock (a Mutex's TryLock
// and Unlock). A cache's fill and invalidation are not.
//
// # Suggested fix
//
// A script that is exactly the classic compare-and-delete of KEYS[1]
// against ARGV[1], replying 1 when it deleted and 0 otherwise
// (fix.CompareAndDelete: GET == ARGV then DEL/UNLINK else return 0, in its
// usual spellings), is replaced by DELIFEQ KEYS[1] ARGV[1], which replies
// the same 1/0, when every -target has DELIFEQ (Valkey 9.0+); when they
// all have DELEX but not DELIFEQ (Redis 8.4+) by DELEX key IFEQ token. A
// script whose replies differ (redsync's -1 for a missing key, a nil on a
// mismatch) or that does more is left alone. -target is LA112's setting,
// bound here as -LA101.target.
//
// The fix is attached to this rule's diagnostic, at the definition,
// because the finding is about the script: it is only gone when the script
// is. So the fix is all or nothing. For an inline EVAL it rewrites the
// call itself. For a script object it rewrites every run of it in the
// package and deletes the definition (with its doc comment, and the import
// the definition was the file's last use of), and it is offered only when
// the object is held by one unexported package variable or a local given
// nothing but the constructor, every use of that variable is a run the
// resolve layer tied to this script, and every run can be rewritten:
//
//   - go-redis script.Run/Eval/EvalSha(ctx, c, []string{k}, tok) ->
//     c.Do(ctx, "DELIFEQ", k, tok), when c's Do returns the run's type
//     (*Cmd), so .Int(), .Result(), .Err() ... keep compiling; inline
//     rdb.Eval(ctx, src, []string{k}, tok) likewise;
//   - valkey-go/rueidis script.Exec(ctx, c, []string{k}, []string{tok}) ->
//     c.Do(ctx, c.B().Delifeq().Key(k).Value(tok).Build()), the same
//     ValkeyResult; inline B().Eval().Script(src).Numkeys(1).Key(k).Arg(tok)
//     -> B().Delifeq().Key(k).Value(tok);
//   - redigo script.Do(conn, k, tok) for NewScript(1, src), and
//     conn.Do("EVAL", src, 1, k, tok) -> conn.Do("DELIFEQ", k, tok).
//
// The keys and arguments must be written out (one key, one token, no
// slice variables or spreads), not sent in a pipeline or MULTI, and every
// moved expression must be free of calls, so that nothing runs in another
// order. Runs through a go-redis Scripter (no Do), ExecMulti, RunRO and
// the context variants (DoContext) get no fix.
package la101
