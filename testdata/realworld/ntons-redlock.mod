# ntons/redlock: a bsm/redislock-style lock over go-redis v8 through the
# package's own RedisClient interface (SetNX, EvalSha, ScriptLoad with
# go-redis's return types). Obtain is SET NX with 16 crypto/rand bytes; the
# refresh, ensure and release are Lua compare-and-extend/delete scripts whose
# SHA1 is computed in Go and which run by EVALSHA, loaded on NOSCRIPT.
# Held out: expectations written by reading the code before any run.
module github.com/ntons/redlock v0.2.1
# Held-out v5, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v5
packages .

expect LA101 redlock.go:17,111 script-wrapper luaRelease: GET == ARGV[1] then DEL (compare-and-delete) of the key Obtain takes with SET NX at :48, run by the package's EVALSHA helper; DELIFEQ exists on valkey-9.0
expect LA101 redlock.go:16,97 script-wrapper luaRefresh: GET == ARGV[1] then PEXPIRE (compare-and-extend) of the lock key; SET key token IFEQ token PX ttl exists on valkey-9.0
expect LA101 redlock.go:19,131 script-wrapper luaEnsure: GET == ARGV[1], then PEXPIRE when PTTL is below ARGV[2]: a compare-and-extend of the lock key (conditional on the remaining TTL); SET key token IFEQ token PX ttl gives the lock the lease natively
not LA101 redlock.go:18,77 script-wrapper luaPTTL: an owner-checked PTTL read; it neither extends nor releases
not LA101 script.go:42,46,50,57 script-wrapper script.Run: the generic EVALSHA/SCRIPT LOAD helper; the script is its receiver (reported at each script's definition)
not LA108 redlock.go:97,101 direct Refresh examines the reply (status == int64(1), else ErrNotObtained)
not LA108 redlock.go:111,119 direct Release examines the reply (int64 1, else ErrLockNotHeld)
not LA108 redlock.go:131,135 direct Ensure examines the reply (status == int64(1), else ErrNotObtained)
not LA106 redlock.go:48 interface-forwarder SetNX with the caller's ttl: the acquire carries its TTL
not LA107 redlock.go:48,39 direct the token is 16 bytes from crypto/rand drawn per Obtain (a Lock built by NewLock with a malformed token gets the constant fakeToken, but no acquire writes it)
