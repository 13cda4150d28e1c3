# machinery (v1 tree): a task queue. Its locks/redis is the old "SETNX, then GETSET
# on an expired timestamp" lock recipe, with a separate EXPIRE after the GETSET
# takeover; its result backends take a redsync mutex and release it with
# `defer m.Unlock()`, discarding the outcome. (v2.0.13's locks/redis does not
# compile against its own go-redis requirement, so the v1 tree is used.)
module github.com/RichardKnop/machinery v1.10.8
packages ./v1/locks/redis ./v1/backends/redis ./v1/brokers/redis

expect LA102 v1/backends/redis/redis.go:121 library-call redsync Mutex.Unlock releases with a Lua script (default target valkey-9.0 has DELIFEQ)
expect LA108 v1/backends/redis/redis.go:121 library-call defer m.Unlock() discards both the bool and the error: a lock lost during TriggerChord goes unnoticed
expect LA102 v1/backends/redis/goredis.go:129 library-call redsync Mutex.Unlock (go-redis v9 pool), Lua release
expect LA108 v1/backends/redis/goredis.go:129 library-call defer m.Unlock() discards the outcome
expect LA114 v1/locks/redis/redis.go:100 la114-renew EXPIRE of the lock key after the GETSET takeover (line 87): it completes a GETSET, not a SETNX, so it is not the SETNX+EXPIRE of LA106; between GETSET and EXPIRE another contender can GETSET, and the EXPIRE then sets the TTL of whichever holder is there; its reply is ignored. Borderline: issue 10 item 6's reading of LA114
miss LA106 v1/locks/redis/redis.go:87 getset-acquire the GETSET takeover writes the lock with no TTL (GETSET clears it) and the TTL only comes with the separate EXPIRE at line 100: a crash between leaves a TTL-less lock. LA106 lists SET NX/SETNX only, and the recipe's timestamp value lets the next contender take such a lock over, so this is not required
miss LA107 v1/locks/redis/redis.go:71 token-param the value is the caller's schedule tick (schedule.Next(now).UnixNano()-1 in server.go), identical for every worker contending for that tick, by design of the recipe; no step compares it, so the weak token has no consequence of its own
not LA106 v1/locks/redis/redis.go:71 direct SetNX with a TTL (expiration = the tick's deadline - now)
not LA103 v1/backends/redis/redis.go:63 direct not a DEL; SET groupUUID meta EX: a data write with a TTL
