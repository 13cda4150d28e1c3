// Target valkey-9.2: every native command exists; only DELEX without a
// condition is reported.
package valkey92

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

func release(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string, args []interface{}) {
	c.Do(ctx, c.B().Delex().Key(key).Build()) // want `^DELEX without IFEQ deletes whoever holds the lock \(Redis\) or fails \(Valkey\): use DELEX key IFEQ token$`
	conn.Do("DELEX", key)                     // want `^DELEX without IFEQ deletes whoever holds the lock \(Redis\) or fails \(Valkey\): use DELEX key IFEQ token$`
	rdb.Do(ctx, "DELEX", key)                 // want `^DELEX without IFEQ deletes whoever holds the lock \(Redis\) or fails \(Valkey\): use DELEX key IFEQ token$`

	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())
	conn.Do("DELEX", key, "IFEQ", token)
	conn.Do("DELEX", append([]interface{}{key}, args...)...) // condition not visible: not reported
	rdb.Do(ctx, "DELIFEQ", key, token)
}
