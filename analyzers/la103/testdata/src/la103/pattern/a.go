// Package pattern: LA103 with -lock-key-pattern=^mutex: (the default is
// replaced).
package pattern

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func f(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "mutex:job") // want `^plain DEL of lock key "mutex:job" deletes`
	rdb.Del(ctx, "lock:job")
}
