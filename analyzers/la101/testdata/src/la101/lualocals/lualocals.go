// Package lualocals: Lua lock scripts whose key or token is held in a Lua
// local, and data scripts with locals that are not lock steps.
package lualocals

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Positives: the key or the token reaches the step through locals.

// The lock key is stored in a hash; the script reads it into a local.
const releaseIndirectSrc = `
	local k = redis.call("HGET", KEYS[1], "f")
	if redis.call("GET", k) == ARGV[1] then
		redis.call("DEL", k)
	end`

var releaseIndirect = redis.NewScript(releaseIndirectSrc) // want `Lua lock script \(release\)`

var releaseByReply = redis.NewScript(`local v = redis.call("GET", KEYS[1]); if v == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`) // want `Lua lock script \(release\)`

const extendAliasesSrc = `
	local key = KEYS[1]
	local token = ARGV[1]
	if redis.call("GET", key) == token then
		return redis.call("PEXPIRE", key, ARGV[2])
	end
	return 0`

var extendAliases = redis.NewScript(extendAliasesSrc) // want `Lua lock script \(extend\): use SET key token IFEQ token PX ttl instead`

const releaseBuiltKeySrc = `
	local key = "lock:" .. ARGV[1]
	if redis.call("GET", key) ~= ARGV[2] then return 0 end
	return redis.call("UNLINK", key)`

var releaseBuiltKey = redis.NewScript(releaseBuiltKeySrc) // want `Lua lock script \(release\)`

const acquireAliasesSrc = `
	local key, token, ttl = KEYS[1], ARGV[1], ARGV[2]
	return redis.call("SET", key, token, "NX", "PX", ttl)`

var acquireAliases = redis.NewScript(acquireAliasesSrc) // want `Lua lock script \(acquire\)`

const releaseAllSrc = `
	for _, key in ipairs(KEYS) do
		if redis.call("GET", key) == ARGV[1] then redis.call("DEL", key) end
	end
	return 1`

var releaseAll = redis.NewScript(releaseAllSrc) // want `Lua lock script \(release\)`

// Each listed task's uniqueness lock is deleted only while it still holds
// that task's id (asynq's deleteAllCmd): the owner is read from the server.
const releaseListedSrc = `
local ids = redis.call("ZRANGE", KEYS[1], 0, -1)
for _, id in ipairs(ids) do
	local unique_key = redis.call("HGET", ARGV[1] .. id, "unique_key")
	if unique_key and redis.call("GET", unique_key) == id then
		redis.call("DEL", unique_key)
	end
end
return table.getn(ids)`

var releaseListed = redis.NewScript(releaseListedSrc) // want `Lua lock script \(release\)`

// Negatives: locals that do not hold the caller's key or token, and data
// scripts with locals.

// A listed id compared, but another key deleted: no owner-checked delete.
var listedOther = redis.NewScript(`
for _, id in ipairs(redis.call("ZRANGE", KEYS[1], 0, -1)) do
	if redis.call("GET", KEYS[2]) == id then redis.call("DEL", ARGV[1] .. id) end
end`)

// A value copied from another key is data, not an owner's token.
var copiedValue = redis.NewScript(`
local expected = redis.call("GET", KEYS[2])
if redis.call("GET", KEYS[1]) == expected then return redis.call("DEL", KEYS[1]) end
return 0`)

var constantKey = redis.NewScript(`
	local k = "config"
	if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end
	return 0`)

var storedValue = redis.NewScript(`
	local expected = redis.call("GET", KEYS[2])
	if redis.call("GET", KEYS[1]) == expected then return redis.call("DEL", KEYS[1]) end
	return 0`)

var compareAndSet = redis.NewScript(`
	local key = KEYS[1]
	local old, new = ARGV[1], ARGV[2]
	local cur = redis.call("GET", key)
	if cur == old then
		redis.call("SET", key, new, "PX", ARGV[3])
		return 1
	end
	return 0`)

var counterReset = redis.NewScript(`
	local key = KEYS[1]
	local n = redis.call("INCR", key)
	if n == tonumber(ARGV[1]) then redis.call("DEL", key) end
	return n`)

var otherKey = redis.NewScript(`
	local key = KEYS[1]
	if redis.call("GET", key) == ARGV[1] then
		key = KEYS[2]
		redis.call("DEL", key)
	end`)

func run(ctx context.Context, rdb *redis.Client, token string) {
	releaseIndirect.Run(ctx, rdb, []string{"locks"}, token)
	releaseByReply.Run(ctx, rdb, []string{"lock:a"}, token)
	extendAliases.Run(ctx, rdb, []string{"lock:a"}, token, 30000)
	releaseBuiltKey.Run(ctx, rdb, nil, "a", token)
	acquireAliases.Run(ctx, rdb, []string{"lock:a"}, token, 30000)
	releaseAll.Run(ctx, rdb, []string{"lock:a", "lock:b"}, token)
	rdb.Eval(ctx, `local k, t = KEYS[1], ARGV[1] if redis.call("get", k) == t then return redis.call("del", k) end return 0`, []string{"lock:a"}, token) // want `Lua lock script \(release\)`

	constantKey.Run(ctx, rdb, nil, "v")
	storedValue.Run(ctx, rdb, []string{"a", "b"})
	compareAndSet.Run(ctx, rdb, []string{"cfg"}, "v1", "v2", 1000)
	counterReset.Run(ctx, rdb, []string{"hits"}, 100)
	otherKey.Run(ctx, rdb, []string{"a", "b"}, "v")
	rdb.Eval(ctx, `local k = redis.call("GET", KEYS[1]) if k == ARGV[1] then redis.call("DEL", k) end`, []string{"ptr"}, "v")
}
