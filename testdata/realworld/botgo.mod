# tencent-connect/botgo: the QQ bot SDK. sessions/remote distributes
# websocket shards over Redis; its lock package takes keys with SetNX (a
# uuid v4 the caller passes to lock.New, fresh for each lock object, 60 s
# and 30 s TTLs), renews them from a ticker goroutine with an inline Lua
# compare-and-EXPIRE and releases with an inline Lua compare-and-DEL; both
# scripts' replies are dropped, only their errors returned.
# Held out: expectations written by reading the code before any run.
module github.com/tencent-connect/botgo v0.2.1
# Held-out v3, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v3
packages ./sessions/remote/lock ./sessions/remote

expect LA101 sessions/remote/lock/lock.go:89,90,82 direct Renew: redis.NewScript of GET == ARGV[1] then EXPIRE of the lock key, run on lockKey: a compare-and-extend; SET IFEQ EX exists on the default target valkey-9.0
expect LA101 sessions/remote/lock/lock.go:102,103,95 direct Release: GET == ARGV[1] then DEL, a compare-and-delete; DELIFEQ exists on valkey-9.0
expect LA108 sessions/remote/lock/lock.go:90 direct Renew returns only the script's error: a 0 reply (the lock is no longer ours) reads as a successful renewal, and StartRenew keeps the shard connection running on a lock another process may hold
expect LA108 sessions/remote/lock/lock.go:103 direct Release returns only the script's error: the 0 reply that means the lock was already lost is discarded
not LA107 sessions/remote/lock/lock.go:36 token-param Lock writes lockValue, the caller's value from New: judged at the callers
not LA107 sessions/remote/remote.go:72,73 token-helper the distribute lock's value is uuid.New().String(), a random v4 UUID drawn for this lock object, which is acquired once
not LA107 sessions/remote/remote.go:137,138 token-helper the shard lock's value is uuid.NewString() for a lock object acquired once
not LA106 sessions/remote/lock/lock.go:36 token-param SetNX with the caller's expire; both callers pass a positive constant (60 s, 30 s)
not LA108 sessions/remote/remote.go:183 helper-discard the caller logs Release's error; the lost-lock reply is already gone inside Release (reported there)
not LA103 sessions/remote/session_producer.go:17 state-flag DEL of the session queue list: data, not a lock
