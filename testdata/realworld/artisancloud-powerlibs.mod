# ArtisanCloud/PowerLibs: the utility library under PowerWeChat. Its cache
# package's Redis driver has a generic set-if-absent (AddNX over SetNX with
# the caller's key, value and TTL), a GET-then-SETEX Add, generic DELs and a
# tag index renewed with EXPIRE; the struct even carries a lockRetries field.
# Nothing in the package takes, releases or renews a lock: a look-alike.
# Held out: expectations written by reading the code before any run.
module github.com/ArtisanCloud/PowerLibs/v3 v3.3.2
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./cache

not LA106 cache/redis.go:61 generic-wrapper GRedis.AddNX is the cache driver's generic set-if-absent: key, value and TTL are its caller's parameters (judged at the callers, none in the package); it carries the TTL anyway
not LA107 cache/redis.go:61 generic-wrapper AddNX writes the caller's value into a cache entry; no lock, no token
not LA103 cache/redis.go:155 generic-wrapper GRedis.Delete is the cache's generic DEL of the caller's key
not LA114 cache/redis.go:306 generic-wrapper SetByTags renews a tag set's TTL in a MULTI with the entry's SET; tag sets are cache indexes, not locks
not LA103 cache/redis.go:322 generic-wrapper Invalidate DELs the tag sets and their member keys (cache invalidation)
not LA101 cache/redis.go:42 non-lock-lua SCRIPT_SETEX (EXISTS < 1 and SETEX) is a cache fill that no code runs (only a commented-out NewScript refers to it); nothing frees or renews its key
