# alextanhongpin/core/dsync/cache: look-alike. A typed cache over go-redis v9
# whose storage has set-if-absent (SET NX with TTL, SET NX GET), GETDEL, a
# compare-and-delete and a compare-and-swap of values by digest (DELEX and SET
# IFDEQ, Redis 8.4) and generic Expire/Del: every lock-shaped step is on data,
# with the key and value its caller's. Target redis-8.4: IFDEQ is Redis-only.
# Held out: expectations written by reading the code before any run.
module github.com/alextanhongpin/core/dsync/cache v0.0.2
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
target redis-8.4
packages .

not LA106 redis.go:53 generic-wrapper StoreOnce: SET NX with the caller's TTL stores a cache value once (ErrExists otherwise); no lock
not LA107 redis.go:53 generic-wrapper StoreOnce writes the caller's cached value, not a token
not LA106 redis.go:69 generic-wrapper LoadOrStore: SET NX GET with the caller's TTL (sync.Map's LoadOrStore over Redis); no lock
not LA103 redis.go:134 generic-wrapper LoadAndDelete: GETDEL of the caller's key (data)
not LA108 redis.go:147 data-cad CompareAndDelete examines the reply (n == 0 returns ErrNotExist); data in any case
not LA108 redis.go:163 data-cad CompareAndSwap drops the SET IFDEQ reply (`_, err :=`): a compare-and-swap of a cached value that nothing acquires loses no lock
not LA104 redis.go:163 generic-wrapper CompareAndSwap's SET IFDEQ carries the caller's ttl; a cache value, not a lock extend
not LA112 redis.go:147,163 target DELEX IFDEQ and SET IFDEQ exist on the target redis-8.4
not LA114 redis.go:185 generic-wrapper Expire: the caller's key (data)
not LA103 redis.go:190 generic-wrapper Delete: DEL of the caller's keys (data)
