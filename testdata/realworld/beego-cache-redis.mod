# beego: the web framework's Redis cache adapter (redigo). Every command goes
# through one generic method, do(commandName, args...), which the cache's Put
# (SETEX), Delete (DEL), Incr/Decr and ClearAll (SCAN then DEL) call with
# constant command names: a look-alike for plain DELs of caller keys sent
# through a command-name wrapper.
# Held out: expectations written by reading the code before any run.
module github.com/beego/beego/v2 v2.3.8
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./client/cache/redis

not LA103 client/cache/redis/redis.go:135 generic-wrapper Cache.Delete sends DEL of the caller's cache key through do(); no SET NX in the package
not LA103 client/cache/redis/redis.go:172 generic-wrapper ClearAll DELs every key the SCAN of the cache's prefix returns (flush of cache entries)
not LA106 client/cache/redis/redis.go:129 generic-wrapper Put is SETEX of a cache entry (a TTL, no NX)
