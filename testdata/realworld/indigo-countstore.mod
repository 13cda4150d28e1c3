# bluesky-social/indigo: the AT Protocol's Go monorepo. Its automod
# countstore keeps rate counters and HyperLogLog distinct counts per time
# bucket in Redis: INCR or PFADD, then EXPIRE of the same key in one
# pipeline, over and over. An EXPIRE renewing a key from a loop of writes is
# the shape of a lock renewal; here it is a counter's window: a look-alike.
# Held out: expectations written by reading the code before any run.
module github.com/bluesky-social/indigo v0.0.0-20260605210604-af2fec94f34c
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./automod/countstore

not LA114 automod/countstore/countstore_redis.go:55,59 la114-renew Increment re-EXPIREs hour and day counter buckets after each INCR (a counter window, no SET NX, no lock key)
not LA114 automod/countstore/countstore_redis.go:80,82 la114-renew IncrementPeriod: the same INCR then EXPIRE of one counter bucket
not LA114 automod/countstore/countstore_redis.go:109,113 la114-renew IncrementDistinct: PFADD then EXPIRE of HyperLogLog buckets
