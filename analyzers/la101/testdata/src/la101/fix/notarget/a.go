// Package notarget: the delex fixture's scripts on targets where a node
// has neither DELIFEQ (Valkey 9.0+) nor DELEX (Valkey 9.2+, Redis 8.4+),
// or where no one command is on every target: no fix is offered, because
// the rewritten release would fail with an unknown command there.
package notarget

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

const src = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var unlock = goredis.NewScript(src) // nofix: no release command on every target // want `Lua lock script`

var vkUnlock = valkey.NewLuaScript(src) // nofix: no release command on every target // want `Lua lock script`

var rgUnlock = redis.NewScript(1, src) // nofix: no release command on every target // want `Lua lock script`

func use(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string) {
	unlock.Run(ctx, rdb, []string{key}, token)
	vkUnlock.Exec(ctx, c, []string{key}, []string{token})
	rgUnlock.Do(conn, key, token)
}
