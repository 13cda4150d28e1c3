# go-pay/gopher: a Go toolkit whose redislock package is a rewrite of
# bsm/redislock over redis.Scripter: the acquire is a scripted SET NX PX, the
# refresh and the release are Lua compare-and-extend and compare-and-delete,
# a PTTL read is owner-checked, and two data scripts (GET, SET PX) share the
# package. singleflight's RedisGroup takes that lock per key and drops the
# outcome of its release.
# Held out: expectations written by reading the code before any run.
module github.com/go-pay/gopher v1.0.39
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages ./redislock ./singleflight

expect LA101 redislock/redis_lock.go:19,89 direct luaObtain: SET KEYS[1] ARGV[1] NX PX ARGV[2] inside Lua, a scripted acquire; SET key token NX PX ttl is the same step without a script (reportable on every target)
expect LA101 redislock/redis_lock.go:16,139 direct luaRefresh: GET == ARGV[1] then PEXPIRE (compare-and-extend) of the lock key; SET key token IFEQ token PX ttl exists on valkey-9.0
expect LA101 redislock/redis_lock.go:17,155 direct luaRelease: GET == ARGV[1] then DEL (compare-and-delete) of the lock key; DELIFEQ exists on valkey-9.0
expect LA108 singleflight/singleflight.go:260 helper-discard RedisGroup.Do drops the lock's Release outcome (`_ = obtain.Release(ctx)`); Release turns a 0 reply into ErrLockNotHeld, so a lock lost before release goes unrecorded
not LA101 redislock/redis_lock.go:18,122 direct luaPTTL: an owner-checked PTTL read; it neither extends nor releases the lock
not LA101 redislock/redis_lock.go:20,50 non-lock-lua luaGet: a bare GET of the cached result key (key + "_data")
not LA101 redislock/redis_lock.go:21,70 non-lock-lua luaSet: SET PX of the cached result (data, no NX, no compare)
not LA108 redislock/redis_lock.go:139 direct Refresh examines the reply (status == int64(1), else ErrNotObtained)
not LA108 redislock/redis_lock.go:155 direct Release examines the reply (int64 1, else ErrLockNotHeld)
not LA107 redislock/redis_lock.go:76,89 token-helper the token is a random v4 UUID (google/uuid) drawn per Obtain
not LA106 redislock/redis_lock.go:89 direct the scripted acquire carries PX with the caller's ttl
