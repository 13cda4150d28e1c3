// Package nofix: LA101 findings that keep no fix.
package nofix

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// redsync's release replies -1 when the key is gone: DELIFEQ replies 0.
const redsyncSrc = `
	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end`

var redsyncDelete = goredis.NewScript(redsyncSrc) // nofix: replies -1, 0 or 1 // want `Lua lock script`

// Exported: other packages may run it.
var Unlock = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: exported // want `Lua lock script`

var loaded = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: also loaded // want `Lua lock script`

var scripter = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: a Scripter has no Do // want `Lua lock script`

var keysVar = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: keys in a variable // want `Lua lock script`

var nilReply = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end`) // nofix: replies nil on a mismatch // want `Lua lock script`

var extend = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`) // nofix: an extend // want `Lua lock script`

var twoKeys = redis.NewScript(2, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // nofix: built for two keys // want `Lua lock script`

func use(ctx context.Context, rdb *goredis.Client, s goredis.Scripter, conn redis.Conn, key, token string) {
	redsyncDelete.Run(ctx, rdb, []string{key}, token)
	Unlock.Run(ctx, rdb, []string{key}, token)
	loaded.Load(ctx, rdb)
	loaded.Run(ctx, rdb, []string{key}, token)
	scripter.Run(ctx, s, []string{key}, token)
	keys := []string{key}
	keysVar.Run(ctx, rdb, keys, token)
	nilReply.Run(ctx, rdb, []string{key}, token)
	extend.Run(ctx, rdb, []string{key}, token, 30000)
	twoKeys.Do(conn, key, "other", token)
}
