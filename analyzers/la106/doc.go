// Package la106 defines an Analyzer that reports a lock acquired without a
// TTL (rule LA106, acquire-without-ttl). Only a SET NX with lock evidence
// (keys.AcquireEvidence) is a lock acquire: a state flag that must persist
// until it is cleared, a marker and a generic wrapper whose key is a
// parameter are not reported. The acquires: SET NX with no EX/PX/EXAT/PXAT
// (go-redis SetNX(..., 0), SetArgs{Mode: "NX"}, a builder Nx() then
// Build(), glide SetOnlyIfDoesNotExist without SetExpiry, a raw SET k v NX),
// and the SETNX command (also what go-redis v6-v8 and the compat adapters
// send for SetNX(..., 0)).
//
// When the same function later sends EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT of
// the same key (same constant, same variable, same Sprintf format or
// concatenation with the same holes, as analyzers/internal/keys decides:
// keys.AcquireExpire, the first one in the same function body that is not
// in a loop the acquire is outside of), the finding names that separate
// command: a crash between the two leaves a
// lock that never expires. Inside one MULTI the window is gone, but the
// EXPIRE then runs even when the acquire failed and moves the current
// holder's deadline; the message says so.
//
// A project's set-if-absent-then-expire helper (SetNX(ctx, key, value,
// expireSeconds) sending SETNX, then EXPIRE of the same key parameter in a
// second round trip) is judged where it is called, like any generic
// wrapper whose key is its caller's: a lock acquired through it is
// reported at that call, naming the helper's EXPIRE; the helper itself is
// silent.
//
// A SET NX whose options the layer could not all see is not reported.
//
// An acquire with a TTL the server reads in the wrong unit holds the lock
// for years: a time.Duration written as a raw argument on a client that
// sends it as its count of nanoseconds (resolve's NanosTTL; go-redis v9
// and v8.11.5), as the EX/PX of a raw SET NX (rdb.Do(ctx, "SET", k, v,
// "NX", "PX", ttl): PX 10000000000 for 10s) or as the ARGV a Lua acquire
// or guarded set uses as its EX/PX/EXPIRE/PEXPIRE amount (lua.Detail.TTL:
// EX 10000000000, ~317 years). A typed helper converts a duration itself
// (SetNX(ctx, k, v, ttl), SetArgs{TTL: ttl}) and is not reported, unless
// its TTL multiplies a time.Duration known to hold a real duration by a
// time unit again (lockTTL*time.Millisecond: 8s becomes ~93 days). Known
// means a constant, or a local or package field every visible write of
// which is one (syntax.Index.Duration); a parameter is not followed, since
// ttl*time.Second with callers passing 10 is a common convention, and a
// count made a duration (time.Duration(n)) is a count. redigo formats a
// Duration as "10s", which the server refuses with an error: loud, not
// reported. The message
// says what the server receives and the conversion to send instead
// (ttl.Milliseconds() for PX, int64(ttl / time.Second) for EX).
//
// # Suggested fix
//
// An acquire followed by a separate EXPIRE/PEXPIRE of the same key becomes
// one SET NX EX/PX, and the EXPIRE's statement is deleted, when all of
// this holds:
//
//   - both are sent on their own (not in a pipeline or MULTI), on the same
//     client or connection variable, in the same function literal, with
//     every argument visible; the EXPIRE is the plain form (no NX/XX/GT/LT,
//     not EXPIREAT) with a positive amount;
//   - the EXPIRE is a statement of the same block, later, that does
//     nothing but send it and at most check its error in an if of its own
//     (`if _, err := conn.Do(...); err != nil {...}`, `if err :=
//     rdb.Expire(...).Err(); err != nil {...}`, a bare call, `_ = ...`): a
//     reply that is read, or an error kept in an outer variable, gets no
//     fix;
//   - the statements between the two send no command and call nothing but
//     the standard library, except on paths that leave (return, panic);
//   - the amount is visible at the acquire with the same meaning and
//     stable, and the two are spelled alike, so its unit is right:
//     go-redis SetNX(ctx, k, v, 0) or SetArgs{Mode: "NX"} with Expire/
//     PExpire(ctx, k, d) (SetNX(ctx, k, v, d), TTL: d; the reply is still
//     true/false); raw SET k v NX with EXPIRE/PEXPIRE k n ("EX"/"PX", n
//     appended); a valkey-go/rueidis Set()...Nx().Build() with Expire()
//     ...Seconds(n) or Pexpire()...Milliseconds(n) (ExSeconds(n) or
//     PxMilliseconds(n) inserted);
//   - for the SETNX command itself (raw Do("SETNX", k, v) -> Do("SET", k,
//     v, "NX", "EX", n)), whose 1/0 reply SET NX answers with OK/nil: only
//     when the reply is not read (the statement is the call; on redigo also
//     `_, err :=`, since a nil reply is no error there), or in the one
//     redigo shape whose check is rewritten to match: `n, err :=
//     redis.Int(conn.Do("SETNX", ...))`, then `if err != nil {...}`, then
//     `if n == 0 {...; return}` (or n != 1, and the negations) becomes
//     redis.String, `err != nil && err != redis.ErrNil`, and `n != "OK"`;
//     n must be read nowhere else, and the busy branch must leave and not
//     read err. valkey-go's Setnx builder gets no fix.
package la106
