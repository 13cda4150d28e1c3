# go-cinch/common/worker: the go-cinch framework's cron/once task worker
# (asynq underneath). Worker.lock obtains a bsm/redislock v0.9.4 lock on
# "<group>.<periodKey>.<uid>.lock" before it changes a task's record in a
# Redis hash; every caller releases it in a deferred closure with
# `_ = lock.Release(ctx)`. The task records themselves are HGET/HSET data.
# Held out: expectations written by reading the code before any run.
module github.com/go-cinch/common/worker v1.2.1
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages .

expect LA102 worker.go:872 library-call redislock Client.Obtain (bsm/redislock v0.9.4): the library's obtain, refresh and release are Lua scripts and its locks release only in Lua; DELIFEQ exists on the default target valkey-9.0
expect LA102 worker.go:367 library-call Lock.Release in Once's deferred closure: bsm/redislock's Lua compare-and-delete; DELIFEQ exists on valkey-9.0
expect LA108 worker.go:367 library-call `_ = lock.Release(ctx)`: the release's outcome (ErrLockNotHeld when the lock was lost while Once enqueued) is discarded
expect LA102 worker.go:452 library-call Lock.Release in Cron's deferred closure (Lua compare-and-delete)
expect LA108 worker.go:452 library-call `_ = lock.Release(ctx)` discards the outcome
expect LA102 worker.go:549 library-call Lock.Release in the deferred closure of the task update that re-reads and rewrites the period record
expect LA108 worker.go:549 library-call `_ = lock.Release(ctx)` discards the outcome: a lost lock during the read-modify-write of the record goes unnoticed
expect LA102 worker.go:631 library-call Lock.Release in the second task update's deferred closure
expect LA108 worker.go:631 library-call `_ = lock.Release(ctx)` discards the outcome
expect LA102 worker.go:684 library-call Lock.Release in processed's deferred closure
expect LA108 worker.go:684 library-call `_ = lock.Release(context.Background())` discards the outcome of the lock around the Processed counter's read-modify-write
expect LA102 worker.go:710 library-call Lock.Release in scan's deferred closure
expect LA108 worker.go:710 library-call `_ = lock.Release(context.Background())` discards the outcome
not LA107 worker.go:872 library-call the token is bsm/redislock's own (crypto/rand)
not LA106 worker.go:872 library-call the lock's TTL is ops.lockerTTL, passed to Obtain: bsm/redislock always sets it
