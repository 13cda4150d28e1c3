// Package target: the same lock scripts under every -target family. Which
// steps are reported, and the advice, depend on the target (the test holds
// the table): where a target has no native form of a step, the Lua step is
// the correct one for that fleet.
package target

import "github.com/redis/go-redis/v9"

var acquire = redis.NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)

var extend = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Take the lock, or extend it when it is already ours.
var obtainOrExtend = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 1 end
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return 0`)
