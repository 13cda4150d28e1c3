// Package la107 defines an Analyzer that reports a lock token that is not
// unique per acquisition (rule LA107, weak-lock-token).
//
// The value a lock acquire writes (a SET NX / SETNX with lock evidence,
// keys.AcquireEvidence: the lock-key pattern, an owner-checked step or a
// lock library on the same key shape, a fencing INCR in its MULTI, a name
// that says lock, mutex, lease or leader) is traced by origin.Of through locals, string building and
// one-statement helpers. Weak: a constant, os.Hostname/os.Getpid and
// friends, a loop index, an integer parameter named like a worker or
// goroutine id, time.Now-derived values, math/rand output, time- or
// name-based UUIDs, and package-level variables (computed once, even from
// crypto/rand). Fine: crypto/rand, random UUIDs, and anything built from
// them. The lock-key pattern is the one set by -LA103.lock-key-pattern.
// Parameters, struct fields and unknown calls are not followed, so a
// token passed in is never reported; nor is an idempotency marker (SET
// seen:<id> 1 NX EX ...) or a state flag whose value is a timestamp. Tokens handed to lock
// libraries (redsync WithValue/WithGenValueFunc, redislock Options.Token)
// are not traced.
package la107
