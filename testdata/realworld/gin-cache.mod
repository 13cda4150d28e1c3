# chenyahui/gin-cache: response-cache middleware for Gin. Its Redis store
# sets each cached response with a TTL and deletes it by key; the middleware
# guards cache misses with an in-process singleflight, never with Redis. A
# look-alike: the store's generic Set/Delete sit beside code that talks about
# "locking" concurrent misses.
# Held out: expectations written by reading the code before any run.
module github.com/chenyahui/gin-cache v1.10.0
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./persist

not LA103 persist/redis.go:37 generic-wrapper RedisStore.Delete is the cache store's generic DEL of the caller's key
not LA106 persist/redis.go:31 generic-wrapper RedisStore.Set writes a cached response (plain SET with the caller's TTL, no NX)
