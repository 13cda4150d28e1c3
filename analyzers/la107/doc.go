// Package la107 defines an Analyzer that reports a lock token that is not
// unique per acquisition (rule LA107, weak-lock-token).
//
// The value a lock acquire writes (a SET NX / SETNX with lock evidence,
// keys.AcquireEvidence: the lock-key pattern, an owner-checked step or a
// lock library on the same key shape, a fencing INCR in its MULTI, a name
// that says lock, mutex, lease or leader; the ARGV a Lua acquire writes;
// the token a lock library's options fix: redislock's Options.Token,
// redsync's WithValue or what a WithGenValueFunc function returns) is
// traced by the origin layer through locals, string building and helpers —
// of the package, and of other packages through their facts. Weak: a
// constant, os.Hostname/os.Getpid and friends, a loop index, an integer
// parameter named like a worker or goroutine id, time.Now-derived values,
// math/rand output (also underneath a helper whose result the tracer cannot
// follow), time- or name-based UUIDs, package-level variables (computed
// once, even from crypto/rand), and a field of the acquiring method's type
// that only constructors set (drawn once per object, reused by every
// acquisition). Fine: crypto/rand, random UUIDs, and anything built from
// them. The lock-key pattern is the one set by -LA103.lock-key-pattern.
// Parameters, other fields and unknown calls are not followed, so a token
// passed in is never reported where it is received (it is where it is
// passed to a wrapper); nor is an idempotency marker (SET seen:<id> 1 NX EX
// ...) or a state flag whose value is a timestamp.
package la107
