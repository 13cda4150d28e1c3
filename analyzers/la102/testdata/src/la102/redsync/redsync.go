package redsync

import (
	"context"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

func job(ctx context.Context, rdb *redis.Client) error {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("job", redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil { // native SET NX PX: not reported
		return err
	}
	_ = m.TryLock()
	defer m.UnlockContext(ctx)                              // want `^Mutex.UnlockContext \(release\) runs Lua: use DELIFEQ key token instead$`
	if ok, err := m.ExtendContext(ctx); !ok || err != nil { // want `^Mutex.ExtendContext \(extend\) runs Lua: use SET key token IFEQ token PX ttl instead$`
		return err
	}
	m.Extend() // want `Mutex.Extend \(extend\)`
	m.Unlock() // want `Mutex.Unlock \(release\)`
	_ = m.Value()
	_ = m.Until()
	return nil
}
