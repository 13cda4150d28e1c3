# mrz1836/go-cache: a redigo cache library with a lock helper. WriteLock's
# script reads the key into a Lua local and either takes it with SET NX EX or,
# for the same secret, re-SETs it with EX (a re-acquire that extends);
# ReleaseLock's script DELs it when the local equals the secret. The secret
# is the caller's. The rest is cache data: SET/EXPIRE/DEL helpers and a
# dependency-kill script run by EVALSHA.
# Held out: expectations written by reading the code before any run.
module github.com/mrz1836/go-cache v1.1.11
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

expect LA101 redis_lock.go:57,58,14 direct lockScript: SET KEYS[1] ARGV[1] NX EX ARGV[2] when the key is absent (a scripted acquire), and for the same value a re-SET with EX (a compare-and-extend), the value held in a Lua local; SET key token NX EX ttl and SET key token IFEQ token EX ttl are the native steps
expect LA101 redis_lock.go:82,83,30 direct releaseLockScript: GET into a Lua local, DEL when it equals ARGV[1] (a compare-and-delete of the lock key); DELIFEQ exists on valkey-9.0
not LA108 redis_lock.go:58 direct WriteLockRaw examines the reply (0 returns ErrLockMismatch)
not LA108 redis_lock.go:83 direct ReleaseLockRaw examines the reply (0 returns ErrLockMismatch)
not LA107 redis_lock.go:58 token-param the lock value is WriteLock's secret parameter: a value passed in by the caller of a public API is not decidable here
not LA114 cache.go:288 generic-wrapper ExpireRaw: EXPIRE of the caller's key (cache data)
not LA103 cache.go:311 generic-wrapper DeleteWithoutDependencyRaw: DEL of the caller's keys (cache data)
not LA101 dependency.go:74 non-lock-lua the dependency-kill script (SMEMBERS of dependency sets, DEL of every member) run by its SHA: cache invalidation, no lock
not LA103 dependency.go:80 generic-wrapper DeleteRaw: DEL of the caller's keys after their dependencies
