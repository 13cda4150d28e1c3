# eko/gocache store/redis: a cache store over go-redis. Redis only for data:
# SET with TTL, tag sets with SADD and EXPIRE, DEL on invalidate. A look-alike
# with no lock code.
# Held out: expectations written by reading the code before any run.
module github.com/eko/gocache/store/redis/v4 v4.2.2
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages .

not LA114 redis.go:92 state-flag EXPIRE of a tag set (cache metadata), not a lock
not LA103 redis.go:98 generic-wrapper Delete of the caller's cache key
