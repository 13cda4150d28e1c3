# nf-go/nfgo: a small web/RPC framework. njob runs cron jobs under a Redis
# mutex: SET NX PX with a UUID token, released through ndb.RedisOper's
# DeleteByKeyValue, which GETs the key, compares it with the token in Go and
# DELs it in a second round trip. ndb's generic SET helpers take NX and TTL
# as parameters.
# Held out: expectations written by reading the code before any run.
module github.com/nf-go/nfgo v0.7.0
# Held-out v2, scored once as written (docs/realworld.md); spent since:
# tuning data from then on.
half tuning-v2
packages ./njob ./ndb

expect LA103 njob/distributed.go:83 interface-forwarder the lock's release: DeleteByKeyValue(key, token) through the ndb.RedisOper interface, whose Redis implementation GETs, compares in Go and DELs in a second round trip (ndb/redis_oper.go:183-192); the key is the one the SET NX PX at :72 takes, in TryRunWithMutex of redisMutex
not LA103 ndb/redis_oper.go:192 generic-wrapper DeleteByKeyValue is a generic helper whose key and value are its caller's and whose name says nothing of locks: judged at the call (njob/distributed.go:83), not here
not LA107 njob/distributed.go:72,66 token-helper the token is ncrypto.UUID(), google/uuid NewUUID: a version-1 UUID (timestamp, clock sequence, node id). Not random, but unique per acquisition by construction, which is what the rule asks; borderline, judged not a weak token
not LA106 njob/distributed.go:72 direct SET key token PX ms NX: the acquire carries its TTL
not LA106 ndb/redis_oper.go:91,137 generic-wrapper SetStringOpts/SetObjectOpts: generic SET with caller-chosen NX, XX and TTL
not LA107 ndb/redis_oper.go:91,137 generic-wrapper generic SET helpers: the value is the caller's
