// Package reports builds nightly reports under locks taken with lock
// libraries: redsync and bsm/redislock. Both run their lock steps in Lua.
package reports

import (
	"context"
	"errors"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"example.com/orders/lock"
)

// Nightly builds the nightly report under a redsync mutex.
func Nightly(ctx context.Context, rdb redis.UniversalClient) error {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("lock:report:nightly", redsync.WithExpiry(lock.TTL))
	if err := m.LockContext(ctx); err != nil {
		return lock.ErrBusy
	}

	// ... build the report ...

	ok, err := m.UnlockContext(ctx) // LA102: redsync releases with a Lua script
	if err != nil {
		return err
	}
	if !ok {
		return lock.ErrLost
	}
	return nil
}

// Monthly builds the monthly report under a bsm/redislock lock.
func Monthly(ctx context.Context, rdb *redis.Client) error {
	l, err := redislock.Obtain(ctx, rdb, "lock:report:monthly", lock.TTL, nil) // LA102: redislock obtains with a Lua script
	if errors.Is(err, redislock.ErrNotObtained) {
		return lock.ErrBusy
	}
	if err != nil {
		return err
	}

	// ... build the report ...

	if err := l.Release(ctx); err != nil { // LA102: and releases with one
		if errors.Is(err, redislock.ErrLockNotHeld) {
			return lock.ErrLost
		}
		return err
	}
	return nil
}
