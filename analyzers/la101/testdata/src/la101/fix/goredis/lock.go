package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The package takes locks, so its compare-and-delete scripts are lock
// releases whatever their names (lock evidence).
func acquire(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, "lock:"+key, token, time.Minute).Val()
}
