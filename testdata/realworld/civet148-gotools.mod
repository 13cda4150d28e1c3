# civet148/gotools: a grab-bag of helpers; its redislock package is a small
# Redis lock over the old garyburd/redigo import path: SET NX EX with a value
# the caller passes, released by an inline Lua compare-and-delete whose 0
# reply ("not yours any more") is deliberately ignored.
# Held out: expectations written by reading the code before any run.
module github.com/civet148/gotools v1.4.1
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages ./redislock

expect LA101 redislock/RedisLock.go:142,141,144 direct the Unlock script (redigo NewScript, text on the line above): GET == ARGV[1] then DEL, a compare-and-delete of the lock key; DELIFEQ exists on the default target valkey-9.0
expect LA108 redislock/RedisLock.go:144 direct only the error of the release script is checked; the 0 reply that means the lock was already lost is discarded on purpose (the comment says every non-error counts as unlocked)
not LA107 redislock/RedisLock.go:114 token-param the lock value strValue is the caller's (TryLock's parameter): not decidable here
not LA106 redislock/RedisLock.go:114 direct SET key value EX n NX: the acquire carries its TTL
