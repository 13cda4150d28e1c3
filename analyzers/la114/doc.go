// Package la114 defines an Analyzer that reports a lock extended with
// PEXPIRE, EXPIRE, PEXPIREAT or EXPIREAT (rule LA114,
// extend-without-owner-check).
//
// Lock keys are decided as for LA103 (the same key shape acquired with SET
// NX in the package, or the lock-key pattern: flag -LA114.lock-key-pattern,
// the same setting as -LA103.lock-key-pattern). Not reported: the EXPIRE
// that gives a TTL-less acquire (SETNX, SET NX without a TTL) of the same
// key in the same function its TTL, which is LA106's finding; an EXPIRE
// queued in a MULTI after a WATCH or a GET of the same key (an optimistic
// compare-and-extend); and an op whose arguments could not all be seen.
// Expires inside Lua scripts are LA101's.
package la114
