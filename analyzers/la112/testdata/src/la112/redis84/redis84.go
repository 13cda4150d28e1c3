// Target redis-8.4: DELEX and SET IFEQ exist, DELIFEQ never will.
package redis84

import (
	"context"
	"time"

	"github.com/mediocregopher/radix/v3"
	goredis "github.com/redis/go-redis/v9"
	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-go"
)

func release(ctx context.Context, rdb *goredis.Client, c valkey.Client, g *glide.Client, rc radix.Client, key, token string) {
	rdb.Do(ctx, "delifeq", key, token)                       // want `DELIFEQ needs Valkey 9\.0\+, no Redis version, but the target is redis-8\.4`
	c.Do(ctx, c.B().Delifeq().Key(key).Value(token).Build()) // want `DELIFEQ needs`
	g.CustomCommand(ctx, []string{"DELIFEQ", key, token})    // want `DELIFEQ needs`
	rc.Do(radix.Cmd(nil, "DELIFEQ", key, token))             // want `DELIFEQ needs`
	rdb.DelExArgs(ctx, key, goredis.DelExArgs{})             // want `^DELEX without IFEQ deletes whoever holds the lock \(Redis\) or fails \(Valkey\): use DELEX key IFEQ token$`

	rdb.DelExArgs(ctx, key, goredis.DelExArgs{Mode: "IFEQ", MatchValue: token})
	c.Do(ctx, c.B().Delex().Key(key).Ifeq(token).Build())
	rdb.SetIFEQ(ctx, key, token, token, time.Second)
	rc.Do(radix.Cmd(nil, "SET", key, token, "IFEQ", token, "PX", "1000"))
}
