// Targets valkey-9.2,valkey-8.1: one target lacks DELIFEQ and DELEX.
package fleetone

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
)

func release(ctx context.Context, rdb *goredis.Client, key, token string) {
	rdb.Do(ctx, "DELIFEQ", key, token) // want `^DELIFEQ needs Valkey 9\.0\+, no Redis version, but valkey-8\.1 lacks it: upgrade every node that can become primary first$`
}
