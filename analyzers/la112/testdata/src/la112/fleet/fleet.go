// Targets valkey-9.0,redis-8.4,valkey-8.1 (a mixed fleet mid-migration):
// a command is reported when any target lacks it, naming which.
package fleet

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

func release(ctx context.Context, rdb *goredis.Client, key, token string) {
	rdb.Do(ctx, "DELIFEQ", key, token)                                          // want `^DELIFEQ needs Valkey 9\.0\+, no Redis version, but redis-8\.4 and valkey-8\.1 lack it: upgrade every node that can become primary first$`
	rdb.DelExArgs(ctx, key, goredis.DelExArgs{Mode: "IFEQ", MatchValue: token}) // want `^DELEX needs Valkey 9\.2\+, Redis 8\.4\+, but valkey-9\.0 and valkey-8\.1 lack it: upgrade every node that can become primary first$`
	rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)                         // every target has SET IFEQ
}

func extendOnOld(ctx context.Context, rdb *goredis.Client, key, token string) {
	rdb.Do(ctx, "SET", key, token, "IFEQ", token, "PX", 30000) // still fine: valkey-8.1 is the oldest and has it
}
