// Package target: redsync and bsm/redislock under every -target family.
// Where a target has no native release, the library's Lua is the correct
// lock for that fleet; where it has no SET IFEQ, its Lua extend is (the
// test holds the table).
package target

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

func withRedsync(ctx context.Context, rdb *redis.Client) error {
	m := redsync.New(goredis.NewPool(rdb)).NewMutex("job")
	if err := m.LockContext(ctx); err != nil { // native SET NX PX: never reported
		return err
	}
	if ok, err := m.ExtendContext(ctx); !ok || err != nil {
		return err
	}
	ok, err := m.UnlockContext(ctx)
	if !ok {
		return err
	}
	return nil
}

func withRedislock(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.Obtain(ctx, rdb, "job", time.Minute, nil)
	if err != nil {
		return err
	}
	if err := lock.Refresh(ctx, time.Minute, nil); err != nil {
		return err
	}
	return lock.Release(ctx)
}
