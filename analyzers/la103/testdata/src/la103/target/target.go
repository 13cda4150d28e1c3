// Package target: a plain DEL of a lock key under every -target family;
// the advice names a release every target has (the test holds the table).
package target

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func unlock(ctx context.Context, rdb *redis.Client, job string) error {
	return rdb.Del(ctx, "lock:"+job).Err()
}
