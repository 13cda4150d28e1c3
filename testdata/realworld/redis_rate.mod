# go-redis/redis_rate: the go-redis project's GCRA rate limiter. Negatives only:
# two long non-lock Lua scripts, run through the package's own rediser
# interface.
module github.com/go-redis/redis_rate/v10 v10.0.1
packages .

not LA101 lua.go:7 non-lock-lua allowN: GCRA arithmetic, GET/SET of a TAT with EX; no owner compare
not LA101 lua.go:67 non-lock-lua allowAtMost: same family
