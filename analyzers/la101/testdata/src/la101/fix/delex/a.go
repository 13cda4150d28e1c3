// Package delex: on a Redis 8.4 target the compare-and-delete becomes
// DELEX key IFEQ token.
package delex

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

const src = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var unlock = goredis.NewScript(src) // want `Lua lock script`

var vkUnlock = valkey.NewLuaScript(src) // want `Lua lock script`

var rgUnlock = redis.NewScript(1, src) // want `Lua lock script`

func use(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string) {
	unlock.Run(ctx, rdb, []string{key}, token)
	vkUnlock.Exec(ctx, c, []string{key}, []string{token})
	rgUnlock.Do(conn, key, token)
}
