// Package pattern: LA114 with -lock-key-pattern=^mutex: (the default is
// replaced).
package pattern

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func f(ctx context.Context, rdb *redis.Client) {
	rdb.PExpire(ctx, "mutex:job", time.Second) // want `^PEXPIRE of lock key "mutex:job" extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$`
	rdb.PExpire(ctx, "lock:job", time.Second)
}
