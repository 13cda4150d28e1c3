# asynq/x: asynq's extensions. rate.Semaphore is a distributed counting
# semaphore in a sorted set: a Lua acquire trims expired members and ZADDs the
# task id with its deadline when under the limit; Release ZREMs it and checks
# the count.
# Held out: expectations written by reading the code before any run.
module github.com/hibiken/asynq/x v0.0.0-20240506061152-d04888e74845
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./rate

not LA101 rate/semaphore.go:49,79 non-lock-lua acquireCmd: a counting semaphore in a sorted set (ZREMRANGEBYSCORE, ZCARD, ZADD with the deadline); no string lock key, no native form
not LA103 rate/semaphore.go:95 non-lock-lua Release removes the task's own member with ZREM (the task id is the owner) and examines the count
