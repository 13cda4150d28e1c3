# go-zero: a web/RPC framework whose core/stores/redis ships a lock (RedisLock)
# built from embedded .lua files, run through the framework's own NewScript and
# ScriptRunCtx wrappers, with a token drawn once per lock object from a
# math/rand helper. Also: a generic Setnx wrapper, and non-lock embedded Lua
# (rate limiters, bloom filter) run through the same wrapper from other packages.
module github.com/zeromicro/go-zero v1.10.3
packages ./core/stores/redis ./core/stores/kv ./core/stores/cache ./core/limit ./core/bloom

expect LA101 core/stores/redis/redislock.go:26,24,25 embedded-lua lockScript = NewScript(lockLuaScript): //go:embed lockscript.lua is a scripted acquire (SET NX PX) plus a compare-and-refresh (GET == ARGV then SET PX), through go-zero's own NewScript wrapper (redis.go:164)
expect LA101 core/stores/redis/redislock.go:30,28,29 embedded-lua delScript = NewScript(delLuaScript): //go:embed delscript.lua is the compare-and-delete release (GET == ARGV then DEL); DELIFEQ exists on the default target valkey-9.0
expect LA107 core/stores/redis/redislock.go:62,50,63 token-field the token rl.id is drawn once in NewRedisLock (line 50) by stringx.Randn, which reads a math/rand source seeded with time.Now (core/stringx/random.go), kept in a struct field and written by every AcquireCtx: not unique per acquisition, and weak
not LA106 core/stores/redis/redis.go:1537 generic-wrapper SetnxCtx is the client library's generic SETNX wrapper: key and value are parameters, nothing in the module uses it as a lock; judge it at its callers
not LA107 core/stores/redis/redis.go:1537 generic-wrapper same generic SetnxCtx wrapper: its value is a parameter
not LA103 core/stores/redis/redis.go:400 generic-wrapper DelCtx is the generic DEL wrapper (keys are parameters)
not LA106 core/stores/kv/store.go:666 generic-wrapper clusterStore.SetnxCtx forwards the caller's key and value to a node's SetnxCtx (go-zero's Redis wrapper, SET NX without a TTL): the kv store's generic wrapper, judged at its callers
not LA114 core/stores/redis/redis.go:508 generic-wrapper ExpireCtx is the generic EXPIRE wrapper (key is a parameter)
not LA107 core/stores/cache/cachenode.go:280 state-flag SetnxExCtx(key, "*", seconds) writes the cache's not-found placeholder (a constant with a TTL): a negative-cache entry, not a lock
not LA101 core/limit/periodlimit.go:34 non-lock-lua embedded periodscript.lua: INCRBY + EXPIRE fixed-window rate limiter, run through go-zero's NewScript wrapper from another package
not LA101 core/limit/tokenlimit.go:28 non-lock-lua embedded tokenscript.lua: token bucket (GET, SETEX of counters), no owner check
not LA101 core/bloom/bloom.go:23 non-lock-lua embedded setscript.lua: SETBIT loop of a bloom filter
not LA101 core/bloom/bloom.go:27 non-lock-lua embedded testscript.lua: GETBIT loop of a bloom filter
