// Native lock commands over several clients: each is a use of its command.
package native

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-go"
)

func release(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, key, token string) {
	rdb.Do(ctx, "DELIFEQ", key, token)                                          // uses: delifeq "DELIFEQ release"
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build())                    // uses: delifeq "DELIFEQ release"
	conn.Do("delifeq", key, token)                                              // uses: delifeq "DELIFEQ release"
	rdb.DelExArgs(ctx, key, goredis.DelExArgs{Mode: "IFEQ", MatchValue: token}) // uses: delex "DELEX IFEQ release"
	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())                       // uses: delex "DELEX IFEQ release"
	conn.Do("DELEX", key)                                                       // uses: delex "DELEX without a condition"
}

func extend(ctx context.Context, rdb *goredis.Client, c valkey.Client, g *glide.Client, conn redis.Conn, key, token string) {
	rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)                                                                            // uses: ifeq "SET IFEQ extend"
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Px(30*time.Second).Build())                                            // uses: ifeq "SET IFEQ extend"
	g.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(time.Minute))) // uses: ifeq "SET IFEQ extend"
	conn.Do("SET", key, token, "IFEQ", token, "PX", 30000)                                                                         // uses: ifeq "SET IFEQ extend"
}

// Negatives: the rest of the lock pattern, and neighbours of the native
// commands, rely on nothing new.
func others(ctx context.Context, rdb *goredis.Client, conn redis.Conn, key, token string) {
	rdb.SetNX(ctx, key, token, 30*time.Second)
	rdb.SetIFNE(ctx, key, token, "x", time.Second)
	rdb.Del(ctx, key)
	rdb.Incr(ctx, "fence:"+key)
	rdb.Wait(ctx, 1, time.Second)
	conn.Do("SET", key, token, "NX", "PX", 30000)
	conn.Do("PEXPIRE", key, 30000)
}
