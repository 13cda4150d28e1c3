# openimsdk/open-im-server: an instant-messaging server. Its Redis cache
# allocates message sequence numbers in blocks under a lock kept in a hash
# field: the malloc script sets field LOCK of the sequence hash to a
# math.random owner id and EXPIREs the hash for a few seconds when the block
# must be refilled from MongoDB; setSeq compares the field with the owner,
# HDELs it and writes the new block. Beside it: batch SET+EXPIRE, DEL and GET
# scripts over cache keys, an online-status sorted-set script, token hashes
# re-EXPIREd. A hash-field lock (no native form) among cache scripts.
# Held out: expectations written by reading the code before any run.
module github.com/openimsdk/open-im-server/v3 v3.8.3
# Held-out v6, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v6
packages ./pkg/common/storage/cache/redis

miss LA107 pkg/common/storage/cache/redis/seq_conversation.go:258,287,250,308 lua-token the malloc script's owner id is Lua math.random(0, 999999999): the server's Lua PRNG, which Redis's scripting environment documents as giving the same sequence on every EVAL unless math.randomseed is called, so acquires draw the same id; not a token drawn per acquisition. The rules read the tokens of SET NX and scripted SET NX acquires, not of a lock kept in a hash field
not LA101 pkg/common/storage/cache/redis/seq_conversation.go:250,308 hash-field-lock malloc takes the lock by HSET of field LOCK on the sequence hash and EXPIRE of the whole hash; a lock kept in hash fields has no native form
not LA101 pkg/common/storage/cache/redis/seq_conversation.go:217,237 hash-field-lock setSeq compares field LOCK with the owner and HDELs it (a compare-and-release of a hash field, then data writes): no native form
not LA108 pkg/common/storage/cache/redis/seq_conversation.go:237 hash-field-lock setSeq returns the script's state and setSeqRetry examines it (1 = lock expired, 2 = held by another; both logged)
not LA106 pkg/common/storage/cache/redis/seq_conversation.go:250,308 hash-field-lock the hash lock carries a TTL: EXPIRE lockSecond in the same script
not LA101 pkg/common/storage/cache/redis/lua_script.go:13,82 non-lock-lua setBatchWithCommonExpireScript: SET then EXPIRE of cache keys (no NX, no compare)
not LA101 pkg/common/storage/cache/redis/lua_script.go:22,105 non-lock-lua setBatchWithIndividualExpireScript: SET then EXPIRE with per-key TTLs (cache fill)
not LA103 pkg/common/storage/cache/redis/lua_script.go:31,110 non-lock-lua deleteBatchScript DELs cache keys without comparing them; LuaDeleteBatch is given cache keys, never a lock key
not LA101 pkg/common/storage/cache/redis/online.go:85,118 non-lock-lua SetUserOnline's script: ZREM/ZADD of platform ids and EXPIRE of the user's online set
not LA114 pkg/common/storage/cache/redis/token.go:36 state-flag SetTokenFlagEx re-EXPIREs the user's token hash after HSET (a login-token record)
not LA103 pkg/common/storage/cache/redis/third.go:63 generic-wrapper DEL of an FCM account token key
not LA103 pkg/common/storage/cache/redis/seq_conversation.go:441 key-shape SetMinSeqs invalidates min-seq cache entries whose key prefix constant is named MallocMinSeqLock (text "MALLOC_MIN_SEQ:"), through rockscache's tag-as-deleted; a cache entry filled by getCache, never taken with SET NX
