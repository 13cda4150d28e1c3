package valkeygo

import "github.com/valkey-io/valkey-go"

// releaseScript is the classic Lua compare-and-delete.
var releaseScript = valkey.NewLuaScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`) // want `Lua lock script \(release\)`
