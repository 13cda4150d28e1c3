# go-admin-core: the storage adapters of an admin framework. Its locker wraps
# bsm/redislock v0.5.0 (go-redis v7) behind an AdapterLocker interface; its
# cache adapter has generic Del/Expire wrappers of the same client; its queue
# runs on Redis streams.
# Held out: expectations written by reading the code before any run.
module github.com/go-admin-team/go-admin-core v1.3.11
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./storage/locker ./storage/cache ./storage/queue

expect LA102 storage/locker/redis.go:30 library-call Redis.Lock obtains through bsm/redislock and hands out its *redislock.Lock, whose Refresh and Release run Lua (luaRefresh, luaRelease in v0.5.0); DELIFEQ exists on the default target valkey-9.0. Borderline: v0.5.0's obtain itself is a SET NX PX, but the catalog names the library's Obtain and every lock it returns is released in Lua
not LA103 storage/cache/redis.go:52 generic-wrapper the cache adapter's generic Del(key): nothing in the module deletes a lock key through it
not LA114 storage/cache/redis.go:76 generic-wrapper the cache adapter's generic Expire(key, dur)
not LA107 storage/locker/redis.go:30 library-call the token is the library's own (crypto/rand in randomToken)
