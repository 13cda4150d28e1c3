// Package notarget: the delex fixture's scripts, for targets where a node
// has neither DELIFEQ (Valkey 9.0+) nor DELEX (Valkey 9.2+, Redis 8.4+),
// or where no one command is on every target. There the Lua
// compare-and-delete is the correct release for the fleet: it is not
// reported (and so gets no fix, which would fail with an unknown command).
package notarget

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

const src = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var unlock = goredis.NewScript(src)

var vkUnlock = valkey.NewLuaScript(src)

var rgUnlock = redis.NewScript(1, src)

func use(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string) {
	unlock.Run(ctx, rdb, []string{key}, token)
	vkUnlock.Exec(ctx, c, []string{key}, []string{token})
	rgUnlock.Do(conn, key, token)
}
