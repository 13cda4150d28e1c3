// Package target: an EXPIRE of a lock key under every -target family; the
// advice names an extend every target has (the test holds the table).
package target

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func renewLock(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.PExpire(ctx, "lock:"+job, time.Minute).Err()
}
