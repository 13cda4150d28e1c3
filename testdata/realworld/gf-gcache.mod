# gogf/gf v2: GoFrame. os/gcache's Redis adapter is a cache over gf's
# gredis wrapper. Look-alike: SetIfNotExist is SETNX followed by a
# separate PEXPIRE of a cache entry (data, not a lock), and the
# "...FuncLock" methods are named after a local mutex of the memory
# adapter; the Redis adapter takes no lock.
# Held out: expectations written by reading the code before any run.
module github.com/gogf/gf/v2 v2.9.0
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages ./os/gcache

not LA106 os/gcache/gcache_adapter_redis.go:122,128 generic-wrapper SetIfNotExist: SETNX then PEXPIRE of the caller's cache key and value; a cache "set if absent", nothing releases it as a lock (the pair would be LA106's only on a lock key)
not LA107 os/gcache/gcache_adapter_redis.go:122 generic-wrapper the value is the caller's cache value
not LA114 os/gcache/gcache_adapter_redis.go:128,379 generic-wrapper PEXPIRE of a cache entry (after SetIfNotExist, and UpdateExpire)
not LA103 os/gcache/gcache_adapter_redis.go:113,334,374 generic-wrapper DEL of a cache entry (negative duration or nil value)
