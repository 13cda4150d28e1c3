# sponge: a Go service generator's runtime packages. pkg/dlock wraps a redsync
# v4.12.1 Mutex (go-redis v9 pool) behind a Locker interface it shares with an
# etcd implementation; pkg/cache is a generic Redis cache with Del and
# pipelined Expire.
# Held out: expectations written by reading the code before any run.
module github.com/go-dev-frame/sponge v1.16.1
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./pkg/dlock ./pkg/cache

expect LA102 pkg/dlock/redis.go:65 library-call RedisLock.Unlock releases with redsync's Lua deleteScript; DELIFEQ exists on the default target valkey-9.0
not LA108 pkg/dlock/redis.go:65 library-call `_, err := l.mutex.UnlockContext(ctx)` drops the bool but returns the error, and redsync v4.12.1 reports a lost lock as an error (ErrLockAlreadyExpired, ErrNodeTaken)
not LA102 pkg/dlock/redis.go:51,60 library-call redsync's acquire is SET NX PX, not Lua
not LA103 pkg/cache/redis.go:187,384 generic-wrapper the cache's generic Del of cache keys
not LA114 pkg/cache/redis.go:122,319 generic-wrapper pipelined Expire of cache entries being set
