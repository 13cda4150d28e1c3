// A package that uses Valkey but no lock command: no uses.
package none

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

func cache(ctx context.Context, rdb *goredis.Client, key string) {
	rdb.Set(ctx, key, "v", time.Minute)
	rdb.Get(ctx, key)
	rdb.Del(ctx, key)
}
