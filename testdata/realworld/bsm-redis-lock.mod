# bsm/redis-lock: the lock library bsm/redislock grew out of (v8, before
# go modules, on go-redis v6, no go.mod). lock.go holds it all: SET NX PX
# with a 16-byte crypto/rand token drawn per acquire, a Lua refresh
# (compare-and-PEXPIRE) that re-acquires with a new token when it fails,
# and a Lua compare-and-delete release whose 0 reply becomes an error.
# Held out: expectations written by reading the code before any run.
module github.com/bsm/redis-lock v8.0.0+incompatible
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
require github.com/go-redis/redis v6.15.9+incompatible
packages .

expect LA101 lock.go:15,174 direct luaRefresh: GET == ARGV[1] then PEXPIRE (compare-and-extend, lock evidence: the same library's SET NX at :184 and release); SET IFEQ PX exists on the default target valkey-9.0
expect LA101 lock.go:16,194 direct luaRelease: GET == ARGV[1] then DEL (compare-and-delete); DELIFEQ exists on valkey-9.0
not LA106 lock.go:184 direct SetNX with opts.LockTimeout, which normalize() sets to 5s when it is below 1ns (options.go:21): the acquire always carries a TTL
not LA107 lock.go:184,133 token-helper randomToken(): 16 bytes from crypto/rand, drawn by create() for every acquisition (reset() clears it on release)
not LA108 lock.go:174 direct the refresh's reply is examined: 1 keeps the lock, anything else falls through to a fresh acquire
not LA108 lock.go:194 direct the release's reply is examined: anything but 1 returns ErrLockUnlockFailed
