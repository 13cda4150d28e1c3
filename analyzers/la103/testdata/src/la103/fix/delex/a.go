// Package delex: on a Redis 8.4 target (DELEX, no DELIFEQ) the fix
// releases with DELEX key IFEQ token. The functions' names say lock: lock
// evidence for the keys they acquire.
package delex

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

func lockGoRedis(ctx context.Context, rdb *goredis.Client, key, token string) (int64, error) {
	rdb.SetNX(ctx, key, token, time.Minute)
	rdb.Del(ctx, key)                 // want "plain DEL of lock key `key`"
	return rdb.Del(ctx, key).Result() // want "plain DEL of lock key `key`"
}

func lockRedigo(conn redis.Conn, key, token string) (int, error) {
	conn.Do("SET", key, token, "NX", "EX", 60)
	return redis.Int(conn.Do("DEL", key)) // want "plain DEL of lock key `key`"
}

func lockValkeyGo(ctx context.Context, c valkey.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build())
	c.Do(ctx, c.B().Del().Key(key).Build()) // want "plain DEL of lock key `key`"
}

func lockShadowed(ctx context.Context, rdb *goredis.Client, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	goredis := "x"
	_ = goredis
	rdb.Del(ctx, key) // nofix: the package name goredis is shadowed here // want "plain DEL of lock key `key`"
}
