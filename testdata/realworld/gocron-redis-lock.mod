# gocron-redis-lock: gocron's distributed-scheduler locker, a thin layer over
# redsync, analysed for a mixed fleet (Valkey 9.0 and Redis 7.2). The advice
# must hold on every target: no Redis version has a native release, so the
# redsync (Lua) release is right for this fleet and must not fail the run.
module github.com/go-co-op/gocron-redis-lock/v2 v2.0.1
target valkey-9.0,redis-7.2
packages .

not LA102 redislock.go:77 target redsync UnlockContext: a Lua release, the only correct release on redis-7.2 (DELEX IFEQ needs Redis 8.4); its outcome is examined (lines 78-83)
not LA102 redislock.go:60 library-call redsync LockContext: redsync acquires natively (SET NX PX)
