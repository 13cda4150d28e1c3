// Package la107 defines an Analyzer that reports a lock token that is not
// unique per acquisition (rule LA107, weak-lock-token).
//
// The value a lock acquire writes (a SET NX / SETNX with lock evidence,
// keys.AcquireEvidence: the lock-key pattern, an owner-checked step or a
// lock library on the same key shape, a fencing INCR in its MULTI, a name
// that says lock, mutex, lease or leader; the ARGV a Lua acquire writes,
// or the literal it writes when the value is in the Lua text, reported
// where the text is and only when the claim is held as a lock (a name
// says lock, or the package deletes, releases or renews its key:
// keys.HeldScript; a dedup or cooldown mark left to expire is not; a
// guarded set, EXISTS == 0 then SET and PEXPIRE, only when it is a lock's
// acquire by keys.GuardedEvidence);
// the token a lock library's options fix: redislock's Options.Token,
// redsync's WithValue or what a WithGenValueFunc function returns) is
// traced by the origin layer through locals, string building and helpers —
// of the package, and of other packages through their facts. Weak: a
// constant, os.Hostname/os.Getpid and friends, a loop index, an integer
// parameter named like a worker or goroutine id, time.Now-derived values,
// a pid or goroutine id (one cut out of runtime.Stack, also by a helper of
// another package), a math/rand generator seeded with the time or a constant and math/rand's
// global source (also underneath a helper whose result the tracer cannot
// follow; the message names the seed), time- or name-based UUIDs,
// package-level variables (computed once, even from crypto/rand), and a
// field of the acquiring method's type that only constructors set (drawn
// once per object, reused by every acquisition; one the constructor sets
// from its own parameter is judged by what this package's calls pass for
// it, and left to the callers when nothing here calls it). Fine: crypto/rand, random
// UUIDs, math/rand/v2's runtime-seeded functions, a generator seeded from
// crypto/rand, and anything built from them. Tokens kept in a field of a
// local struct are followed through its composite literal and assignments.
// A reentrant lock (keys.Reentrant: a same-owner re-acquire or a hold
// count) keeps its owner id on purpose: it is reported only when that id is
// weak, with advice to draw it once per owner (a strong default that an
// option setter may replace with its caller's id is sound). The message never cuts the
// cause (ruleutil.Fit shortens the advice instead). The lock-key pattern is the one set by -LA103.lock-key-pattern.
// Parameters, other fields and unknown calls are not followed, so a token
// passed in is never reported where it is received (it is where it is
// passed to a wrapper, or to an exported constructor of another package
// that keeps it in the field its acquires write: its TokenParam fact,
// judged at the call through the caller's locals and what this package
// passes to the caller's unexported function); nor is an idempotency marker (SET seen:<id> 1 NX EX
// ...) or a state flag whose value is a timestamp. A local token several
// acquires write (a lease re-running its acquire with the same mark to
// renew) is reported once, at the first.
package la107
