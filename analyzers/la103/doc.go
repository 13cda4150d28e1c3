// Package la103 defines an Analyzer that reports a lock released with a
// plain DEL, UNLINK or GETDEL (rule LA103, plain-del-release).
//
// A key is a lock key (keys.LockKeyAt, the catalog's lock evidence) when
// the same key shape (constant, variable, template such as "lock:"+id or
// fmt.Sprintf("lock:%s", id), or helper call) is taken in the same package
// by a SET NX/SETNX with lock evidence, or when its constant text matches
// a lock-key pattern (flag -LA103.lock-key-pattern, shared with LA114;
// default "lock" or "locks" as a word part, so "mylock", "block" and
// "clock" are not lock keys by pattern), or when the DEL follows a GET of
// the key compared with a token in the same function under a name that
// says lock. A SET NX without evidence (a state flag cleared with DEL) makes
// no lock key. A DEL queued in a MULTI after a WATCH or a GET of the same
// key (the optimistic compare-and-delete) is an owner-checked release and
// is not reported; neither is a DEL whose arguments the resolve layer
// could not all see.
//
// A DEL after a GET of the same key compared with the token, in the same
// function but in another round trip, gets its own message: the check and
// the delete race. So does a call of a GET-compare-then-DEL helper (of
// this package or another, also through an interface whose Redis
// implementation it is: nfgo's DeleteByKeyValue(key, val)), reported at
// the call whose key is a lock key and whose value is the lock's token;
// the helper itself is generic and judged only at its calls. The advice
// names the release every -target has (DELIFEQ, else DELEX IFEQ, else a
// Lua compare-and-delete).
//
// A Lua script that DELs a key it never compares (go-redisson's
// Mutex.Unlock: EXISTS then DEL; lua.Detail.Deletes) is reported at each
// run that passes it a lock key, without a fix; the same script run on a
// cache key is not.
//
// # Suggested fix
//
// A plain DEL or UNLINK of one lock key becomes DELIFEQ key token when
// every -target has DELIFEQ (Valkey 9.0+), else DELEX key IFEQ token when
// every target has DELEX (Redis 8.4+, Valkey 9.2+); with neither there is
// no fix. -target is LA112's setting, bound here as -LA103.target. The
// token is the value written by the acquire of the same key: the acquires
// of the very same key earlier in the same function when there are any,
// else every acquire of the same key shape in the package; they must all
// write the same expression, and it must be visible at the DEL with the
// same meaning (fix.Ctx.Visible), stable (fix.Ctx.Stable: a variable given its
// value once, a parameter never assigned, a constant) and free of calls
// (a call would draw a new token). The DEL must be complete, not queued
// in a pipeline or MULTI, and spelled:
//
//   - redigo or go-redis raw Do("DEL", key) -> Do("DELIFEQ", key, token):
//     both reply with an integer, 1 when the key was deleted, so the reply
//     check is kept as it is;
//   - go-redis rdb.Del(ctx, key) -> rdb.Do(ctx, "DELIFEQ", key, token)
//     when the *IntCmd reply is discarded, deferred, read with .Err(), or
//     read with .Result() (rewritten to .Int64(), the same (int64, error));
//     .Val() or a kept *IntCmd get no fix (they would not compile); with
//     DELEX, rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ",
//     MatchValue: token}), which returns the same *IntCmd, when the file
//     imports go-redis under a name not shadowed at the DEL;
//   - valkey-go/rueidis c.B().Del().Key(k).Build() written inside the Do ->
//     c.B().Delifeq().Key(k).Value(token).Build() (Delex().Key(k).Ifeq(token)),
//     when the builder has these steps and the token is a string.
//
// A DEL released through a struct's field (m.rdb.Del(ctx, m.key) with the
// acquire in another method) gets no fix: the method's receiver is not the
// acquiring method's.
package la103
