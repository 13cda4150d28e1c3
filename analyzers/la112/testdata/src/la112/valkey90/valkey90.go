// Target valkey-9.0 (the default): DELIFEQ and SET IFEQ exist, DELEX does not.
package valkey90

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

func release(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string) {
	rdb.DelExArgs(ctx, key, goredis.DelExArgs{Mode: "IFEQ", MatchValue: token}) // want `^DELEX needs Valkey 9\.2\+, Redis 8\.4\+, but the target is valkey-9\.0: upgrade every node that can become primary first$`
	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())                       // want `DELEX needs Valkey 9\.2\+, Redis 8\.4\+, but the target is valkey-9\.0`
	conn.Do("DELEX", key)                                                       // want `^DELEX needs Valkey 9\.2\+, Redis 8\.4\+, but the target is valkey-9\.0` `^DELEX without IFEQ deletes whoever holds the lock`

	// Supported by valkey-9.0.
	rdb.Do(ctx, "DELIFEQ", key, token)
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build())
	conn.Do("DELIFEQ", key, token)
	rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Px(30*time.Second).Build())
	conn.Do("SET", key, token, "IFEQ", token, "PX", 30000)
	rdb.Del(ctx, key)
	rdb.SetNX(ctx, key, token, time.Second)
}
