# machinery v2: the same task queue as machinery v1.10.8 (tuning), as its own
# module: the SETNX/GETSET-timestamp lock recipe with an EXPIRE after the
# takeover, and redsync mutexes (v4.8.1) released with `defer m.Unlock()`.
module github.com/RichardKnop/machinery/v2 v2.0.13
half tuning
packages ./locks/redis ./backends/redis ./brokers/redis

expect LA102 backends/redis/redis.go:121 library-call redsync Mutex.Unlock releases with a Lua script (default target valkey-9.0 has DELIFEQ)
expect LA108 backends/redis/redis.go:121 library-call defer m.Unlock() discards both the bool and the error: a lock lost during TriggerChord goes unnoticed
expect LA102 backends/redis/goredis.go:124 library-call redsync Mutex.Unlock (go-redis v9 pool), Lua release
expect LA108 backends/redis/goredis.go:124 library-call defer m.Unlock() discards the outcome
expect LA114 locks/redis/redis.go:98 la114-renew EXPIRE of the lock key after the GETSET takeover (line 85): it completes a GETSET, not a SETNX; its reply is ignored (as in v1)
miss LA106 locks/redis/redis.go:85 getset-acquire the GETSET takeover writes the lock with no TTL and the TTL only comes with the separate EXPIRE (as in v1)
miss LA107 locks/redis/redis.go:69 token-param the value is the caller's schedule tick, identical for every contending worker by design of the recipe (as in v1)
not LA106 locks/redis/redis.go:69 direct SetNX with a TTL (the tick's deadline - now)
not LA103 backends/redis/redis.go:63 direct not a DEL; SET groupUUID meta EX: a data write with a TTL
