# throttled: a GCRA rate limiter with stores for go-redis v6/v8/v9 and redigo.
# Negatives only: a SETNX-then-EXPIRE that stores a rate-limit timestamp (not a
# lock), and a Lua compare-and-swap of that timestamp that has the shape of a
# compare-and-extend (GET == ARGV[1] then SETEX) but writes a new value.
module github.com/throttled/throttled/v2 v2.15.0
packages ./store/goredisstore ./store/goredisstore.v8 ./store/goredisstore.v9 ./store/redigostore

not LA106 store/goredisstore/goredisstore.go:85 generic-wrapper SetIfNotExistsWithTTL (go-redis v6): SETNX of a rate-limit TAT (int64), then EXPIRE; key and value are parameters; a data store, never released, not a lock
not LA106 store/goredisstore.v8/goredisstore.go:79 generic-wrapper same SetIfNotExistsWithTTL for go-redis v8
not LA106 store/goredisstore.v9/goredisstore.go:79 generic-wrapper same SetIfNotExistsWithTTL for go-redis v9
not LA106 store/redigostore/redigostore.go:113 generic-wrapper same for redigo: SETNX then EXPIRE (line 129) of a rate-limit value
not LA114 store/goredisstore.v9/goredisstore.go:91 generic-wrapper EXPIRE of the rate-limit key, not a lock
not LA101 store/goredisstore/goredisstore.go:14,119 data-cad redisCASScript: GET == ARGV[1] then SETEX KEYS[1] ARGV[3] ARGV[2]: a compare-and-swap to a new value (old != new), not an extend of a held lock
not LA101 store/goredisstore.v8/goredisstore.go:14,113 data-cad same compare-and-swap script (go-redis v8)
not LA101 store/goredisstore.v9/goredisstore.go:14,113 data-cad same compare-and-swap script (go-redis v9)
not LA101 store/redigostore/redigostore.go:14,158 data-cad same compare-and-swap script, sent with redigo EVAL
