package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// b.go imports time too: 45*time.Second means the same here.
func extendInline(ctx context.Context, rdb *redis.Client, token string) time.Duration {
	rdb.SetIFEQ(ctx, "lock:inline", token, token, 0) // want `SET IFEQ without EX/PX/EXAT/PXAT`
	return 0
}
