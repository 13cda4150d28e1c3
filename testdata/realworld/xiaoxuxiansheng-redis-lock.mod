# xiaoxuxiansheng/redis_lock: a redigo lock library (and a Redlock over it)
# written up in a widely read blog series. The token is the process id and
# the goroutine id, drawn once per lock object; the acquire is SET EX NX; a
# watchdog extends the lock every 10 s with a Lua compare-and-EXPIRE and drops
# the outcome; Unlock is a Lua compare-and-delete through the package's own
# LockClient interface, whose Client sends EVAL.
# Held out: expectations written by reading the code before any run.
module github.com/xiaoxuxiansheng/redis_lock v0.0.0-20230830022514-0a735ab2dd39
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages . ./utils

expect LA107 lock.go:86,40 direct the lock value is utils.GetProcessAndGoroutineIDStr(), "pid_goroutineid", set once by NewRedisLock and written by every tryLock: two processes with the same pid (containers) in goroutines with the same id write the same token, and a lock object reuses it for every acquire
expect LA101 lock.go:197,196 interface-forwarder Unlock runs LuaCheckAndDeleteDistributionLock (lua.go:4: GET into a local, compare with ARGV[1], DEL) through LockClient.Eval, which Client forwards as EVAL: a compare-and-delete of the lock key; DELIFEQ exists on valkey-9.0
expect LA101 lock.go:139,138 interface-forwarder DelayExpire runs LuaCheckAndExpireDistributionLock (lua.go:15: GET into a local, compare, EXPIRE): a compare-and-extend of the lock key; SET key token IFEQ token EX ttl exists on valkey-9.0
expect LA108 lock.go:132 helper-discard the watchdog drops DelayExpire's outcome (`_ = r.DelayExpire(...)`), which is an error when the extend found another owner: the holder never learns the lock was lost and the watchdog keeps going
not LA108 lock.go:197,202 direct Unlock examines the release's reply (ret != 1 returns an error)
not LA108 redlock.go:65 direct RedLock.Unlock keeps the first node's release error and returns it
not LA106 lock.go:86 interface-forwarder SetNEX sends SET key value EX expireSeconds NX (30 s when unset, with the watchdog): the acquire carries its TTL
not LA106 redis.go:154 generic-wrapper Client.SetNX: a generic SET NX of the caller's key, which the lock does not use
not LA103 redis.go:177 generic-wrapper Client.Del: a generic DEL of the caller's key, which the lock does not use
not LA101 redis.go:208 generic-wrapper Client.Eval: the generic EVAL wrapper; the script is a parameter (judged at the lock's calls)
