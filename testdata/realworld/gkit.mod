# songzhibin97/gkit: a Go service toolkit. distributed/locker/lock_ridis is a
# Redis lock whose acquire and release are inline Lua (EVAL): the acquire
# re-sets the key when the mark matches (a reentrant extend) or SET NX PX;
# LeaseLock draws the mark from tools/rand_string (a math/rand source seeded
# with the time) and renews by re-running the acquire, logging failures. The
# task backend takes redsync mutexes and releases them with a bare
# `defer l.Unlock()`; its group takeover is a write-once SETNX record.
# Held out: expectations written by reading the code before any run.
module github.com/songzhibin97/gkit v1.2.13
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages ./distributed/locker/lock_ridis ./distributed/backend/backend_redis

expect LA101 distributed/locker/lock_ridis/redis.go:36,16,20 direct CMDLock run with EVAL: a scripted acquire (SET KEYS[1] ARGV[1] NX PX in Lua, after a compare-and-re-set for the same mark); SET NX PX is native on every target
expect LA101 distributed/locker/lock_ridis/redis.go:66,22 direct CMDUnlock run with EVAL: GET == ARGV[1] then DEL of the lock key; DELIFEQ exists on the default target valkey-9.0
expect LA107 distributed/locker/lock_ridis/lease.go:72,71 token-helper LeaseLock's mark is rand_string.RandomLetter(6), drawn from rand.NewSource(time.Now().UnixNano()) at package level: a time-seeded math/rand source (six letters, too)
expect LA102 distributed/backend/backend_redis/redis.go:135 library-call redsync Mutex.Unlock (the library's Lua release) in TriggerCompleted; DELIFEQ exists on valkey-9.0
expect LA108 distributed/backend/backend_redis/redis.go:135 library-call `defer l.Unlock()` drops the release's outcome
not LA102 distributed/backend/backend_redis/redis.go:132 library-call redsync's Lock is SET NX PX, not Lua
not LA107 distributed/locker/lock_ridis/redis.go:36 token-param Lock's mark is its caller's parameter: judged at the caller (LeaseLock)
not LA108 distributed/locker/lock_ridis/lease.go:94 direct the lease renewal (a re-run of the acquire script) logs its error; Lock turns a lost lock into ErrLockFailed, so the outcome is examined and recorded
not LA106 distributed/backend/backend_redis/redis.go:66 state-flag GroupTakeOver: SETNX of a group's JSON record with the result TTL, retried until it is written; a write-once record, never released: not a lock
not LA107 distributed/backend/backend_redis/redis.go:66 state-flag the group record, not a lock token
