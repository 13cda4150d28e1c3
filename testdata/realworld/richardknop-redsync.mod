# RichardKnop/redsync: a fork of redsync v1 (pre-go.mod, redigo pools), kept
# at its own path by the author of machinery. Lock takes SET NX PX with 32
# crypto/rand bytes on every pool and releases on every pool after a failed
# quorum without looking at the result; Unlock and Extend run Lua
# compare-and-delete and compare-then-SET-XX-PX scripts. release compares the
# interface{} reply with the untyped constant 0, which never equals redigo's
# int64: a lost lock counts as released.
# Held out: expectations written by reading the code before any run.
module github.com/RichardKnop/redsync v1.2.0
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
require github.com/gomodule/redigo v1.9.3
packages .

expect LA101 mutex.go:117,128 direct deleteScript: GET == ARGV[1] then DEL (compare-and-delete) of the mutex's key, taken by the SET NX PX at :113; DELIFEQ exists on valkey-9.0
expect LA101 mutex.go:132,143 direct touchScript: GET == ARGV[1] then SET XX PX (compare-and-extend); SET key token IFEQ token PX ttl exists on valkey-9.0
expect LA108 mutex.go:129 direct release returns `status != 0`: status is the interface{} reply holding redigo's int64, the untyped 0 becomes an int, so the comparison is always true and a 0 reply (lock already lost) counts as released
expect LA108 mutex.go:64 helper-discard after a failed quorum Lock releases on every pool with a bare `m.release(pool, value)`, dropping the bool that says whether the token was still there
not LA108 mutex.go:143,144 direct touch examines the extend's reply (the script's "ERR" string, and a nil SET XX reply becomes ErrNil)
not LA106 mutex.go:113 direct raw SET NX PX with the mutex's expiry (8 s by default): the acquire carries its TTL
not LA107 mutex.go:113,37 direct the value is 32 bytes from crypto/rand drawn per Lock call
