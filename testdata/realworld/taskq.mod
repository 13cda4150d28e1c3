# taskq (v3): a task queue on go-redis v8 that uses bsm/redislock for its
# scheduler and per-worker locks, analysed for Redis 7.2 (target-dependent
# advice: no native release or extend exists there, so the library's Lua is
# right for the fleet). Positives: releases whose outcome is discarded. Also a
# SETNX dedup marker with a constant value.
module github.com/vmihailenco/taskq/v3 v3.2.9
target redis-7.2
packages . ./redisq

expect LA108 consumer.go:456 library-call deferred `_ = lock.Release(ctx)` when a worker stops: ErrLockNotHeld (the worker ran past its lease) is dropped
expect LA108 consumer.go:732 library-call `_ = lock.Release(ctx)` after a failed Obtain/Refresh; borderline: the loss is already suspected here, but the outcome is still dropped
expect LA108 consumer.go:741 library-call `_ = lock.Release(ctx)` on stop, outcome dropped
not LA102 consumer.go:720 target redislock.Obtain on redis-7.2: the library (Lua acquire, refresh, release) is correct for this fleet; no native release exists on Redis before 8.4. Borderline: a scripted acquire is reportable on every target (SET NX PX works everywhere), but bsm's acquire cannot be replaced alone, and the release it pairs with must stay Lua here
not LA102 consumer.go:722 target Lock.Refresh on redis-7.2: SET IFEQ needs Redis 8.4
not LA102 consumer.go:456,732,741 target Lock.Release on redis-7.2: DELEX IFEQ needs Redis 8.4
not LA102 redisq/queue.go:435 target redislock.Obtain of the scheduler lock on redis-7.2
not LA102 redisq/queue.go:441 target Lock.Release of the scheduler lock (its error is logged)
not LA107 storage.go:63 state-flag Exists: SETNX name "" EX 24h is a once-only dedup marker of message names; it is never released, so it is not a lock and its constant value is no token
