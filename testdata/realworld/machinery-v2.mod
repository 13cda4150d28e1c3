# machinery v2: the same task queue as machinery v1.10.8 (tuning), as its own
# module: redsync mutexes (v4.8.1) released with `defer m.Unlock()`. Its
# SETNX/GETSET lock recipe (./locks/redis) calls UniversalClient.Context(),
# which the go-redis v9 its module graph selects no longer has: that package
# does not compile at this version, so it is not analysed (machinery v1.10.8
# has the recipe).
module github.com/RichardKnop/machinery/v2 v2.0.13
half tuning
packages ./backends/redis ./brokers/redis

expect LA102 backends/redis/redis.go:121 library-call redsync Mutex.Unlock releases with a Lua script (default target valkey-9.0 has DELIFEQ)
expect LA108 backends/redis/redis.go:121 library-call defer m.Unlock() discards both the bool and the error: a lock lost during TriggerChord goes unnoticed
expect LA102 backends/redis/goredis.go:124 library-call redsync Mutex.Unlock (go-redis v9 pool), Lua release
expect LA108 backends/redis/goredis.go:124 library-call defer m.Unlock() discards the outcome
not LA103 backends/redis/redis.go:63 direct not a DEL; SET groupUUID meta EX: a data write with a TTL
