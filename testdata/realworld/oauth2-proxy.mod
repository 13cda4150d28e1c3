# oauth2-proxy: an authenticating reverse proxy. Session refresh is serialised
# with a per-session lock: pkg/sessions/redis wraps bsm/redislock v0.10.0
# behind the sessions.Lock interface, which a no-op in-memory type also
# implements; the middleware obtains and releases it through SessionState.
# Held out: expectations written by reading the code before any run.
module github.com/oauth2-proxy/oauth2-proxy/v7 v7.15.6
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages ./pkg/sessions/redis ./pkg/apis/sessions ./pkg/middleware ./pkg/sessions/persistence

expect LA102 pkg/sessions/redis/lock.go:35 library-call redislock Obtain of the session lock; bsm/redislock's lock steps run Lua and its locks release in Lua; DELIFEQ exists on the default target valkey-9.0
expect LA102 pkg/sessions/redis/lock.go:51 library-call Lock.Refresh: a Lua compare-and-PEXPIRE; SET IFEQ PX exists on valkey-9.0
expect LA102 pkg/sessions/redis/lock.go:75 library-call Lock.Release: a Lua compare-and-delete; DELIFEQ exists on valkey-9.0
not LA108 pkg/sessions/redis/lock.go:51,75 library-call Refresh and Release examine the outcome: ErrNotObtained and ErrLockNotHeld (the lock was lost) become sessions.ErrNotLocked, returned to the caller
not LA108 pkg/middleware/stored_session.go:188 interface-forwarder session.ReleaseLock (sessions.Lock, implemented by the Redis lock and by NoOpLock) returns the release's outcome, and the deferred call logs it: a lost lock is recorded
not LA103 pkg/sessions/redis/client.go:41,73 generic-wrapper the session client's generic Del(key): session data, not the lock key
not LA107 pkg/sessions/redis/lock.go:35 library-call the token is bsm/redislock's own (crypto/rand)
