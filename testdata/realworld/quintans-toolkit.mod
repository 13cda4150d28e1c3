# quintans/toolkit: a utility module whose redislock package wraps redsync
# v1.4.2 (redigo pools): Lock takes the mutex and starts a heartbeat
# goroutine that extends it (stopping on a failed extend) and unlocks it with
# a bare call when done; Unlock keeps only the error of redsync's Unlock,
# which in v1.4.2 reports a lost lock as (false, nil).
# Held out: expectations written by reading the code before any run.
module github.com/quintans/toolkit v0.3.5
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages ./redislock

expect LA102 redislock/redislock.go:67 library-call redsync Mutex.Unlock runs the library's Lua compare-and-delete; DELIFEQ exists on the default target valkey-9.0
expect LA108 redislock/redislock.go:67 library-call the heartbeat goroutine releases with a bare `l.mu.Unlock()`: both the bool and the error are dropped
expect LA102 redislock/redislock.go:70 library-call redsync Mutex.Extend runs the library's Lua compare-and-PEXPIRE; SET key token IFEQ token PX ttl exists on valkey-9.0
expect LA102 redislock/redislock.go:84 library-call Lock.Unlock calls redsync Mutex.Unlock (Lua compare-and-delete); DELIFEQ exists on valkey-9.0
expect LA108 redislock/redislock.go:84 library-call `_, err := l.mu.Unlock()` keeps only the error; redsync v1.4.2 returns (false, nil) when the token was no longer there (release's status 0 is not an error), so a lost lock counts as released
not LA108 redislock/redislock.go:70 library-call the heartbeat examines Extend's bool (`if !ok` it stops and unlocks)
not LA108 redislock/redislock.go:72 helper-discard after a failed extend the goroutine drops Lock.Unlock's error; the lost-lock outcome is already gone inside Unlock (reported at :84)
not LA102 redislock/redislock.go:52 library-call redsync's Lock is SET NX PX, not Lua
