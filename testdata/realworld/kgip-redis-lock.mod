# kgip/redis-lock: a Redisson-style reentrant lock. The acquire and release
# scripts keep the owner (a uuid per lock context) and a hold count in a hash
# field and EXPIRE the hash; an optional watchdog goroutine renews the lock
# key with a bare EXPIRE every Expire/2 through the package's adapter
# interface (go-redis v6 and v8 adapters).
# Held out: expectations written by reading the code before any run.
module github.com/kgip/redis-lock v1.3.1
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages ./lock ./adapters

miss LA114 lock/core.go:132 direct the watchdog renews the lock key with a bare EXPIRE every Expire/2, with no owner check: after the lease ran out (a paused holder) and another client took the key, it extends their lock; the lock lives in hash fields taken by Lua (no SET NX) and its key is the constructor's parameter, so the key is outside LA114's lock-key definition
not LA101 lock/core.go:17,161 hash-field-lock lockScript: HGET/HSET of the owner's hold count in a hash field, then EXPIRE: a reentrant lock in hash fields has no native form
not LA101 lock/core.go:38,183 hash-field-lock unlockScript: decrements the owner's hash field and DELs the hash at zero: a hash-field release, no native form
not LA108 lock/core.go:183 hash-field-lock Unlock examines the script's reply (== 1)
not LA107 lock/core.go:71 token-field the owner id is a random v4 UUID per lock context (satori/go.uuid NewV4), kept in a hash field of a reentrant lock
not LA114 adapters/go-redisv8.go:22 generic-wrapper the v8 adapter's Expire forwards the caller's key (judged at the watchdog's call)
not LA114 adapters/go-redis.go:22 generic-wrapper the v6 adapter's Expire forwards the caller's key (judged at the watchdog's call)
not LA101 adapters/go-redisv8.go:27 generic-wrapper the v8 adapter's Eval: the script is a parameter
not LA101 adapters/go-redis.go:27 generic-wrapper the v6 adapter's Eval: the script is a parameter
