# taskq v4's Redis queue (redisq/v4): the scheduler serialises each scheduled
# job with bsm/redislock v0.9.1 (withRedisLock: Obtain, then a deferred Release
# whose error is logged). The same library use as taskq v3, judged here on the
# default target valkey-9.0, where every lock step has a native form.
module github.com/vmihailenco/taskq/redisq/v4 v4.0.0-beta.4
half tuning
packages .

expect LA102 queue.go:428 library-call redislock.Obtain of the scheduler lock: bsm/redislock does its lock steps in Lua and releases in Lua; DELIFEQ exists on valkey-9.0
expect LA102 queue.go:434 library-call Lock.Release: a Lua compare-and-delete; DELIFEQ exists on valkey-9.0
not LA108 queue.go:434 library-call the release's error (ErrLockNotHeld when the lock was lost) is logged
not LA103 queue.go:258 direct `_ = q.redis.Del(ctx, q.zset)` deletes the queue's delayed-job sorted set on purge: data, not a lock
