// Package la109 defines an Analyzer that reports a fencing counter drawn in
// a separate round trip from the lock acquire it belongs to (rule LA109,
// fence-outside-acquire).
//
// A fencing counter is an INCR/INCRBY whose key matches a fence-key pattern
// (flag -LA109.fence-key-pattern, shared with LA110 and LA113; default
// "fence", "fencing" or "token" as a word part), or whose reply reaches the
// arguments of a protected-resource write in the same function (see
// fence.Info.Fence). A counter next to an acquire whose value goes nowhere
// (attempt counters, rate limits) is not a fence. It is reported when the
// same function sends a SET NX/SETNX and the INCR is not queued in the same
// MULTI/EXEC as one of them (a plain pipeline is one round trip but not
// atomic). Library acquires (redsync, redislock, valkeylock) are not
// considered: they cannot share a MULTI with anything, which LA102 already
// says. A glide batch whose atomicity is chosen at run time is given the
// benefit of the doubt.
package la109
