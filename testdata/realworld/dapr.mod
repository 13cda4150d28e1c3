# dapr components-contrib: Dapr's Redis lock store and state store, written
# against Dapr's own RedisClient interface, whose every implementation in the
# declaring package (v8Client, v9Client) forwards to go-redis. The lock's
# release is an inline Lua compare-and-delete run through that interface
# (interface forwarder). The state store's ETag compare-and-delete is data, not
# a lock.
module github.com/dapr/components-contrib v1.18.0
packages ./lock/redis ./state/redis ./common/component/redis

expect LA101 lock/redis/standalone.go:104,29 interface-forwarder Unlock runs unlockScript (GET into a local, compare with ARGV[1], DEL) through RedisClient.EvalInt, an interface whose implementations v8Client/v9Client forward to go-redis Eval
not LA107 lock/redis/standalone.go:87 token-param TryLock's value is req.LockOwner, chosen by the Dapr API caller: not decidable here
not LA106 lock/redis/standalone.go:87 token-param the TTL is the request's ExpiryInSeconds (validated by the Dapr runtime), through the RedisClient.SetNX forwarder
not LA106 common/component/redis/v9client.go:157 generic-wrapper v9Client.SetNX forwards key, value and expiration: a generic wrapper, judged at its callers
not LA106 common/component/redis/v8client.go:157 generic-wrapper v8Client.SetNX, the same
not LA101 common/component/redis/v9client.go:140 generic-wrapper v9Client.EvalInt forwards a script parameter to Eval
not LA101 state/redis/redis.go:54,214,448 data-cad delDefaultQuery: HGET version == ARGV[1] (the ETag) then DEL: an optimistic-concurrency delete of a state entry, nothing ever acquires these keys
not LA101 state/redis/redis.go:79,212,446 data-cad delJSONQuery: the same with JSON.GET/JSON.DEL
not LA101 state/redis/redis.go:39,359,362,427,430 data-cad setDefaultQuery/setJSONQuery: ETag compare-and-set of a state entry
not LA103 common/component/redis/v9client.go:77 generic-wrapper v9Client.Del forwards keys
