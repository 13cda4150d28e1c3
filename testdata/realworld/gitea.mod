# gitea: the self-hosted Git service. modules/globallock is its cluster-wide
# lock: a redsync v4.13.0 Mutex per "gitea:globallock:" key, extended by a
# background loop and released through a ReleaseFunc, both ignoring the
# outcome by design (the comments say the lock expires anyway); a memory
# locker implements the same Locker interface.
# Held out: expectations written by reading the code before any run.
module code.gitea.io/gitea v1.24.6
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./modules/globallock

expect LA102 modules/globallock/redis_locker.go:104 library-call redsync Mutex.Unlock: the Lua deleteScript; DELIFEQ exists on the default target valkey-9.0
expect LA108 modules/globallock/redis_locker.go:104 library-call `_, _ = mutex.Unlock()` drops the release's outcome; the comment argues the lock expires anyway, but a lost lock (another holder ran while this one did) goes unrecorded
expect LA102 modules/globallock/redis_locker.go:132 library-call redsync Mutex.Extend: the Lua touchScript; SET IFEQ PX exists on valkey-9.0
expect LA108 modules/globallock/redis_locker.go:132 library-call `_, _ = v.Extend()` in the extend loop: a failed extend means the lock is lost, and the holder carries on working under it
not LA102 modules/globallock/redis_locker.go:90 library-call redsync's acquire (LockContext) is SET NX PX, not Lua
