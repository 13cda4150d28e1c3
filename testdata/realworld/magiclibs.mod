# yamakiller/magicLibs: a game-server toolkit. mutex/redismutex.go is a Redis
# lock that sends its commands through a caller-supplied function value
# (RedisMethodDo, redigo's Do signature): SET NX EX with the caller's token,
# a plain DEL release, and an "AddTimeOut" that reads the TTL and re-SETs the
# key with the token, no owner check. The other files are in-process locks.
# Held out: expectations written by reading the code before any run.
module github.com/yamakiller/magicLibs v1.3.6
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages ./mutex

expect LA103 mutex/redismutex.go:46 direct Unlock DELs the "redislock:" key without checking the token: a plain-DEL release. The command goes through a function value shaped like redigo's Do (RedisMethodDo) with a constant command name, read as that command (a known miss until after held-out v4)
expect LA114 mutex/redismutex.go:61 direct AddTimeOut extends by TTL then SET key token EX (no NX, no IFEQ): it overwrites and extends whoever holds the lock. A SET re-writing the lock's token with a TTL outside the acquire, sent through the function value (a known miss until after held-out v4, when no rule read that shape)
not LA107 mutex/redismutex.go:27 token-param the token is TryRedisLock's parameter: not decidable here
