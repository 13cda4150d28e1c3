# centrifuge: a real-time messaging library. Its Redis broker, map broker and
# presence manager (over rueidis) keep history in streams and lists, state in
# hashes and sorted sets, and presence in hashes, through 19 embedded Lua
# scripts loaded with rueidis.NewLuaScript; idempotent publishing remembers a
# result hash with EXPIRE. No locks.
# Held out: expectations written by reading the code before any run.
module github.com/centrifugal/centrifuge v0.40.1
# Held-out v1, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v1
packages .

not LA101 broker_redis.go:331 non-lock-lua publishIdempotentScript: HMGET of a result hash, PUBLISH, HSET + EXPIRE of the result (an idempotency record), no owner check
not LA101 broker_redis.go:332,333,334,335 non-lock-lua history scripts: XADD/XRANGE of streams, RPUSH/LRANGE of lists, meta hashes with EXPIRE
not LA101 map_broker_redis.go:256,260,264,268,272,276,280,284 non-lock-lua map broker scripts: state kept in hashes, ordered sets and streams, with per-field HPEXPIRE and PEXPIRE of containers
not LA101 presence_redis.go:123,124,125,126 non-lock-lua presence scripts: hashes and sorted sets of clients with EXPIRE
