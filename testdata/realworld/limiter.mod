# ulule/limiter: a rate limiter whose Redis store loads two Lua scripts with
# SCRIPT LOAD and runs them with EVALSHA through its own client interface.
# Negatives only.
module github.com/ulule/limiter/v3 v3.11.2
packages ./drivers/store/redis

not LA101 drivers/store/redis/store.go:18,179 non-lock-lua luaIncrScript: INCRBY then PEXPIRE of a counter (a local holds KEYS[1])
not LA101 drivers/store/redis/store.go:32,184 non-lock-lua luaPeekScript: GET and PTTL of the counter
