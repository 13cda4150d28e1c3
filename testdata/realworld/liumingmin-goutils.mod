# liumingmin/goutils: a utility module. utils/distlock's RdsLuaLock takes its
# lock in one EVAL (EXISTS, then GET == token and EXPIRE, else SETEX) with a
# uuid drawn per lock object, and unlocks with a plain DEL. db/redis has a
# resource lease (SETNX with TTL, re-acquired by the same owner with GET and
# a bare EXPIRE) and a cooldown marker; cache has a generic Del wrapper.
# Held out: expectations written by reading the code before any run.
module github.com/liumingmin/goutils v1.3.11
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages ./db/redis ./utils/distlock ./cache

expect LA101 utils/distlock/rdslock.go:28 direct RdsLuaLock.TryLock's script: when the key exists, GET == ARGV[2] then EXPIRE (a compare-and-extend of the lock key, in package distlock under a name that says lock); SET key token IFEQ token PX ttl exists on valkey-9.0 (the other branch, SETEX after EXISTS, is a set-if-absent that SET NX EX does natively)
expect LA103 utils/distlock/rdslock.go:67 direct RdsLuaLock.Unlock releases with a plain DEL of l.key: it deletes whichever holder's lock is there; the key is taken by an EXISTS-guarded SETEX inside Lua (a guarded set, re-entered by the same owner), which the Go side holds as a lock (RdsLuaLock frees it). A known miss at v5's run; reported since the after-v5 tuning pass reads SETEX as a guarded set
expect LA114 db/redis/lock.go:66 la114-renew RdsLockResWithCD renews the lease with a bare EXPIRE after a GET compared with the owner's value in an earlier round trip: the lease can change hands between the GET and the EXPIRE, which then extends the next holder's lock
not LA107 utils/distlock/rdslock.go:22 token-field the owner value is a random v4 UUID drawn once per lock object, and TryLock re-acquires (extends) for the same value: a reentrant lock's strong per-owner id
not LA108 utils/distlock/rdslock.go:28 direct TryLock examines the script's reply (val == 1)
not LA106 db/redis/lock.go:75 direct SetNX with cdSeconds as TTL: the lease carries its expiry
not LA107 db/redis/lock.go:75 token-param the lease's value is RdsLockResWithCD's parameter (its doc comment passes a server id as the owner, which re-acquires its own lease); a value passed in by the caller of a public API is not decidable here
not LA106 db/redis/lock.go:26 state-flag RdsAllowActionWithCD: a cooldown marker (value 1) taken with SETNX and a TTL and never released; no lock
not LA107 db/redis/lock.go:26 state-flag the cooldown marker's constant value 1 identifies no owner; nothing compares or releases it
not LA114 db/redis/zset.go:37 generic-wrapper EXPIRE of a sorted set whose key is the caller's (data)
not LA103 cache/func_cache.go:31 generic-wrapper RdsCacher.Del: a cache's generic DEL of the caller's key
