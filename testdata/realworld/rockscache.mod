# rockscache (dtm-labs): a cache-consistency library whose locks live in hash
# fields (lockOwner, lockUntil) updated by inline Lua run through a helper
# (callLua) over the package's own Eval interface. No native command can do a
# hash-field compare-and-delete, so these are not LA101; the strong-consistency
# LockForUpdate sets no expiry at all (known miss).
module github.com/dtm-labs/rockscache v0.1.1
packages .

not LA101 client.go:251 hash-field-lock luaLock: HGET lockUntil/lockOwner, HSET both: a lock in hash fields; DELIFEQ/SET IFEQ work on whole string keys, so there is no native form
not LA101 client.go:269 hash-field-lock luaUnlock: HGET lockOwner == ARGV[1] then HSET lockUntil 0, HDEL lockOwner, EXPIRE: owner-checked release of a hash-field lock
not LA101 client.go:144 hash-field-lock luaGet: takes the hash-field lock when the value is missing or stale
not LA101 client.go:162 hash-field-lock luaSet: owner-checked write of the value and release of the hash-field lock
not LA101 client.go:97 hash-field-lock delete (TagAsDeleted): marks the hash field stale
not LA101 utils.go:34 script-wrapper callLua: the generic EVAL helper over the redisConn interface; the script is a parameter
not LA108 client.go:178 hash-field-lock _ = c.UnlockForUpdate(...): the unlock script returns nothing either way, so there is no outcome to examine
miss LA106 client.go:251 hash-field-lock LockForUpdate sets lockUntil to 1e10 seconds (year 2286): a lock with no expiry, so a crashed holder blocks the key forever; a hash-field lock in Lua is outside LA106's commands
