# asynq: a job queue whose every operation is a Lua script. Most are data
# scripts (negatives); the "uniqueness lock" of unique tasks is taken with
# SET NX EX and released with a compare-and-delete inside larger scripts, two
# of them through a key held in a Lua local (HGET of the task hash). Pause is a
# TTL-less SETNX state flag cleared with a plain DEL: not a lock.
module github.com/hibiken/asynq v0.26.0
packages ./internal/rdb

expect LA101 internal/rdb/rdb.go:157 direct enqueueUniqueCmd takes the uniqueness lock: SET KEYS[1] ARGV[1](task id) NX EX ttl; borderline: the script also enqueues the task, so it keeps Lua for that part; the lock step itself has a native form
expect LA101 internal/rdb/rdb.go:318 direct doneUniqueCmd releases the uniqueness lock: GET KEYS[6] == ARGV[1] then DEL, inside the "done" data script (same borderline as above)
expect LA101 internal/rdb/rdb.go:419 direct markAsCompleteUniqueCmd releases the uniqueness lock: GET KEYS[7] == ARGV[1] then DEL
expect LA101 internal/rdb/rdb.go:582 direct addToGroupUniqueCmd takes the uniqueness lock: SET KEYS[4] ARGV[2] NX EX ARGV[5]
expect LA101 internal/rdb/rdb.go:703 direct scheduleUniqueCmd takes the uniqueness lock: SET KEYS[1] ARGV[1] NX EX ARGV[2]
expect LA101 internal/rdb/inspect.go:1515 lua-local deleteTaskCmd releases the uniqueness lock through a Lua local: unique_key = HGET(KEYS[1], "unique_key"); GET(unique_key) == ARGV[1] then DEL(unique_key)
expect LA101 internal/rdb/inspect.go:1651 lua-local deleteAllCmd releases the uniqueness lock of each task: key from HGET into a local, compared with the local id from ZRANGE, then DEL; re-judged a lock release: the id compared is the value enqueueUniqueCmd/scheduleUniqueCmd write with SET NX (the task id, the lock's owner), so the DEL frees that task's lock only while the task still holds it; the owner is read from the server (the zset) rather than passed in ARGV, which changes nothing about the key being a lock
not LA106 internal/rdb/inspect.go:2062 state-flag Pause: SETNX of the queue's "paused" flag with no TTL on purpose (it must persist until Unpause); the value is a timestamp for display; no lock-key name, no owner check anywhere
not LA107 internal/rdb/inspect.go:2062 state-flag Pause flag's value is time.Now().Unix() by design: a state flag, not a lock token
not LA103 internal/rdb/inspect.go:2075 state-flag Unpause clears the paused flag with DEL: any operator may unpause; not a lock release
not LA101 internal/rdb/rdb.go:227 non-lock-lua dequeueCmd: RPOPLPUSH + lease ZADD (a lease in a sorted set, not a lock key)
not LA101 internal/rdb/rdb.go:285 non-lock-lua doneCmd without a unique key: LREM/ZREM/DEL/INCR only
not LA101 internal/rdb/rdb.go:1060 non-lock-lua aggregationCheckCmd: ZSET bookkeeping
