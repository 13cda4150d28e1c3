# micro/go-plugins sync/lock/redis: go-micro v2's Redis lock plugin, on the
# pre-v4 redsync (github.com/go-redsync/redsync v1.3.1, redigo pools). Acquire
# is redsync's SET NX PX; Release checks Unlock's boolean.
# Held out: expectations written by reading the code before any run.
module github.com/micro/go-plugins/sync/lock/redis/v2 v2.3.0
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages .

expect LA102 redis.go:59 library-call redsync Mutex.Unlock runs the library's Lua compare-and-delete; DELIFEQ exists on the default target valkey-9.0
not LA108 redis.go:59 library-call Unlock's result is kept (unlocked) and a false one is returned as an error ("lock not unlocked")
not LA102 redis.go:39 library-call redsync's Lock is SET NX PX, not Lua
