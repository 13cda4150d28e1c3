// Target valkey-8.0: none of the native lock commands exist.
package valkey80

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-go"
)

func extend(ctx context.Context, rdb *goredis.Client, c valkey.Client, g *glide.Client, conn redis.Conn, key, token string) {
	rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)                                                                            // want `SET IFEQ needs Valkey 8\.1\+, Redis 8\.4\+, but the target is valkey-8\.0`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Px(30*time.Second).Build())                                            // want `SET IFEQ needs`
	g.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(time.Minute))) // want `SET IFEQ needs`
	conn.Do("DELIFEQ", key, token)                                                                                                 // want `DELIFEQ needs Valkey 9\.0\+, no Redis version, but the target is valkey-8\.0`

	// Not native lock commands: fine everywhere.
	rdb.SetNX(ctx, key, token, 30*time.Second)
	rdb.SetIFNE(ctx, key, token, "x", time.Second)
	conn.Do("SET", key, token, "NX", "PX", 30000)
	g.Del(ctx, []string{key})
}
