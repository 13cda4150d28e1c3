# gocraft/work: a redigo job queue from before go.mod (the require lines pin
# its imports). Its "unique jobs" take a uniqueness lock with SET NX EX inside
# the enqueue scripts, with the constant value '1', and release it with a plain
# DEL when the job finishes or is deleted. Its per-job-type "lock" keys are
# concurrency counters (INCR/DECR), not mutual-exclusion locks: negatives with
# "lock" in their key names.
module github.com/gocraft/work v0.5.1
require github.com/gomodule/redigo v1.9.3
require github.com/robfig/cron v1.2.0
packages .

expect LA101 enqueue.go:33 direct enqueueUniqueScript (redigo NewScript, kept in a struct field): SET KEYS[2] '1' NX EX 86400 takes the uniqueness lock, then LPUSH; borderline like asynq's: the script keeps Lua for the enqueue
expect LA101 enqueue.go:34 direct enqueueUniqueInScript: the same uniqueness-lock acquire, then ZADD to the scheduled set
expect LA103 worker.go:218 key-shape the worker releases the uniqueness lock with a plain DEL of redisKeyUniqueJob(ns, name, args), the key shape the enqueue scripts take with SET NX (enqueue.go:108, :138): after the 24 h TTL ran out and the job was enqueued again, this DEL frees the new job's lock
expect LA103 client.go:492 key-shape DeleteScheduledJob releases the same uniqueness lock with a plain DEL of redisKeyUniqueJob(...)
# LA107 reads the literal a scripted acquire writes since issue 22's follow-up
# (the Lua constant-token rule): the former known miss "enqueue.go:33,34", one
# line for both scripts while no rule read Lua values, is two acquires, one
# per script, each an expectation of its own.
expect LA107 enqueue.go:33 lua-token enqueueUniqueScript's uniqueness lock writes the Lua constant '1': every enqueuer writes the same value, so no release could check ownership
expect LA107 enqueue.go:34 lua-token enqueueUniqueInScript: the same constant '1' in the scheduled enqueue's uniqueness lock
not LA101 worker.go:74 non-lock-lua redisLuaFetchJob: its acquireLock/releaseLock are INCR/HINCRBY of a concurrency counter named "...:lock", not a mutual-exclusion lock
not LA101 dead_pool_reaper.go:113 non-lock-lua redisLuaReapStaleLocks: DECRBY of dead pools' counts on the concurrency "lock" counters
not LA101 dead_pool_reaper.go:132 non-lock-lua redisLuaReenqueueJob: moves in-progress jobs back and decrements the counters
not LA103 dead_pool_reaper.go:91 state-flag DEL of a dead pool's heartbeat hash
not LA103 heartbeater.go:120 state-flag DEL of the pool's own heartbeat hash on stop
