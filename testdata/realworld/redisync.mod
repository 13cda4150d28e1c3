# ryandotsmith/redisync (2013, pre-go.mod, garyburd/redigo): a mutex
# whose acquire and release are Lua scripts (redigo NewScript), with the
# key and the owner held in Lua locals. The acquire script re-extends
# the TTL when the caller already owns the key (same-owner re-acquire)
# and otherwise SETs and EXPIREs a free key; the release compares and
# DELs. The owner id is read once per Mutex from /dev/urandom.
# Held out: expectations written by reading the code before any run.
module github.com/ryandotsmith/redisync v0.0.0-20130805215020-cdc7c96d65dd
# Held-out v4, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v4
require github.com/garyburd/redigo v1.6.4
packages .

expect LA101 mutex.go:90,25,115 lua-local luaLock: GET KEYS[1] into the local lock_owner, compared with ARGV[1] (the local call_owner), then EXPIRE: a compare-and-extend (lock evidence: the release script compares and deletes the same key); its other branch acquires a free key with SET then EXPIRE in the same script
expect LA101 mutex.go:91,50,128 lua-local luaUnlock: GET into a local compared with ARGV[1], then DEL (compare-and-delete through Lua locals); DELIFEQ exists on valkey-9.0
not LA107 mutex.go:89,135 token-field borderline: m.id is drawn once per Mutex by NewMutex and reused by every TryLock, but the lock script's owner branch makes a same-owner re-acquire (reentrant by the catalog's definition), and the id is 16 bytes of /dev/urandom, unique per owner (a failed open would leave zeros: an error path, not the design)
not LA108 mutex.go:115 direct TryLock returns reply == 1: a refused acquire or extend reads as not locked
not LA108 mutex.go:128 direct Unlock returns reply == 1 to its caller: the outcome is examined and handed on
not LA106 mutex.go:25 lua-local the acquire branch SETs and EXPIREs in one script: atomic, the key never lives without a TTL
