# goravel/redis: the Redis driver of the Goravel framework (cache, queue,
# session). Look-alike: the cache driver's Add is a generic SET NX with the
# caller's value and TTL and Forget a generic DEL; goravel/framework's
# cache.Lock (another module, not in the suite) builds its lock on them
# through the framework's Driver interface, so no lock step is taken in
# this module. The queue moves due delayed jobs with non-lock Lua.
# Held out: expectations written by reading the code before any run.
module github.com/goravel/redis v1.18.0
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
packages .

not LA106 cache.go:51 generic-wrapper Add: SetNX with the caller's key, value and TTL (a cache "add if absent"); judged at its callers, which are in goravel/framework
not LA107 cache.go:51 generic-wrapper Add's value is its caller's
not LA103 cache.go:86 generic-wrapper Forget: generic DEL of the caller's cache key
not LA101 queue.go:133,116 non-lock-lua migrateDelayedJobs: ZRANGE the earliest delayed job, compare its score with now, ZREM and RPUSH it: queue data, no lock
not LA103 session.go:62 direct Destroy: DEL of a session key
