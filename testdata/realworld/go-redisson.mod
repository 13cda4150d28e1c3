# cheerego/go-redisson (package godisson): a Redisson-like lock library on
# go-redis v8. Mutex (mutex.go) is a string key taken, released and
# renewed by inline EVAL: an EXISTS-guarded SET of the constant 1 with
# PEXPIRE, an unconditional DEL with PUBLISH, and an EXISTS-guarded
# PEXPIRE from a watchdog goroutine; none of them checks an owner, as the
# lock has none. RLock (rlock.go) is Redisson's reentrant lock in hash
# fields (HINCRBY on uuid:goroutine-id, owner-checked in Lua).
# Held out: expectations written by reading the code before any run.
module github.com/cheerego/go-redisson v0.0.6
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages .

expect LA101 mutex.go:107 direct Mutex's acquire script: EXISTS == 0 then SET KEYS[1] 1 and PEXPIRE, a lock step with a native form (SET NX PX). An EXISTS-guarded SET without NX reads like a cache fill; it is an acquire by the Go side's evidence (a Mutex whose Unlock and watchdog DEL and PEXPIRE the same key). Was a known miss until that shape was read (after held-out v4)
expect LA107 mutex.go:107 lua-token the Mutex's value is the Lua constant 1: every holder writes the same value, so nothing can tell one holder from another (no release or renewal even tries); held as a lock (Mutex, Unlock, watchdog), taken by the EXISTS-guarded SET (a known miss until after held-out v4)
expect LA103 mutex.go:128 direct Mutex.Unlock's script DELs KEYS[1] whenever it exists, then publishes: any client's Unlock deletes whoever holds the lock now; a plain DEL inside Lua of the key the EXISTS-guarded SET takes (a known miss until after held-out v4)
expect LA114 mutex.go:177 direct the watchdog's renewal script PEXPIREs KEYS[1] whenever it exists: after the lease ran out and another client took the key, it extends their lock; an owner-less extend inside Lua (a known miss until after held-out v4, when LA114 read PEXPIRE/EXPIRE outside Lua only)
not LA101 rlock.go:193,228,254 hash-field-lock RLock's acquire, release and renewal keep the lock in hash fields (HEXISTS/HINCRBY on uuid:goroutine-id): no native form
not LA107 gedission.go:25 token-field RLock's owner is uuid.NewV4 drawn once per Godisson plus the goroutine id: a reentrant lock's per-owner id from a random v4 UUID, kept in a hash field
not LA108 mutex.go:161 direct the watchdog examines the renewal's reply: 0 (key gone) stops renewing
not LA108 rlock.go:147 direct the RLock watchdog examines the renewal's reply the same way
