# bsm/redislock: the lock library itself (every step is a Lua script). The
# reference positives: the acquire, refresh and release scripts are lock
# scripts; the owner-checked PTTL read is not a lock step.
module github.com/bsm/redislock v0.9.4
packages .

expect LA101 redislock.go:18 direct luaRefresh: GET == ARGV[1] then PEXPIRE (compare-and-extend)
expect LA101 redislock.go:19 direct luaRelease: GET == ARGV[1] then DEL (compare-and-delete)
expect LA101 redislock.go:21 direct luaObtain: SET NX PX, else re-SET PX when the token prefix matches (scripted acquire)
not LA101 redislock.go:20 direct luaPTTL: an owner-checked PTTL read, no lock step
