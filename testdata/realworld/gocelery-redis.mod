# gocelery/gocelery: a Celery client and worker for Go (redigo). Workers take
# a message with BRPOP (whoever pops it owns it) and the backend stores each
# task's result once under celery-task-meta-<task id> with SETEX for a day.
# A claim by a destructive pop and a write-once record with a TTL keyed by a
# uuid, with no SET NX and no release: a look-alike.
# Held out: expectations written by reading the code before any run.
module github.com/gocelery/gocelery v0.0.0-20201111034804-825d89059344
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages .

not LA106 redis_backend.go:64 state-flag SetResult SETEXes a task's result record for 86400 s: a write-once result with a TTL, no NX, no lock
not LA107 redis_backend.go:64 state-flag the value is the task's JSON result, not an owner token; nothing compares it
not LA108 redis_broker.go:59 state-flag GetCeleryMessage claims a message by BRPOP: a queue pop whose reply is examined, no lock release
