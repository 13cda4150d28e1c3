# gin-contrib/cache: Gin's response cache. persistence/redis.go is a
# redigo cache store. Look-alike: Add checks EXISTS and then SETs (or
# SETEXs) in a second round trip, Delete checks EXISTS and then DELs:
# cache data with check-then-act shapes, no lock.
# Held out: expectations written by reading the code before any run.
module github.com/gin-contrib/cache v1.4.4
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages ./persistence

not LA106 persistence/redis.go:115,112 generic-wrapper Add: EXISTS then SET/SETEX of the caller's cache key and value (a cache "add if absent"), no NX and no lock
not LA103 persistence/redis.go:172 generic-wrapper Delete: EXISTS then DEL of the caller's cache key; the check is a cache-miss test, not a token check
