// Lock libraries: the steps that run Lua are uses of Lua; redsync's
// acquire is a native SET NX PX and is not.
package libs

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	rsgoredis "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
	"github.com/valkey-io/valkey-go/valkeylock"
	zero "github.com/zeromicro/go-zero/core/stores/redis"
)

func withRedsync(ctx context.Context, rdb *goredis.Client) error {
	rs := redsync.New(rsgoredis.NewPool(rdb))
	m := rs.NewMutex("job", redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	m.ExtendContext(ctx) // uses: lua "redsync Mutex.ExtendContext (Lua extend)"
	m.Unlock()           // uses: lua "redsync Mutex.Unlock (Lua release)"
	return nil
}

func withRedislock(ctx context.Context, rdb *goredis.Client) error {
	l, err := redislock.Obtain(ctx, rdb, "job", time.Minute, nil) // uses: lua "bsm/redislock Obtain (Lua acquire)"
	if err != nil {
		return err
	}
	_ = l.Refresh(ctx, time.Minute, nil) // uses: lua "bsm/redislock Lock.Refresh (Lua extend)"
	_, _ = l.TTL(ctx)                    // uses: lua "bsm/redislock Lock.TTL (Lua TTL read)"
	_ = l.Key()
	return l.Release(ctx) // uses: lua "bsm/redislock Lock.Release (Lua release)"
}

func withValkeylock(ctx context.Context) error {
	locker, err := valkeylock.NewLocker(valkeylock.LockerOption{ClientOption: valkey.ClientOption{InitAddress: []string{"localhost:6379"}}}) // uses: lua "valkeylock NewLocker (Lua acquire, extend and release)"
	if err != nil {
		return err
	}
	defer locker.Close()
	_, cancel, err := locker.WithContext(ctx, "job") // uses: lua "valkeylock Locker.WithContext (Lua acquire, extend and release)"
	if err != nil {
		return err
	}
	cancel()
	return nil
}

func withGoZero(ctx context.Context, rds *zero.Redis) error {
	l := zero.NewRedisLock(rds, "job")
	l.SetExpire(30)
	if ok, err := l.AcquireCtx(ctx); !ok || err != nil { // uses: lua "go-zero RedisLock.AcquireCtx (Lua acquire)"
		return err
	}
	_, err := rds.SetnxEx("lock:other", "t", 30) // a native SET NX: no use
	_, _ = l.Release()                           // uses: lua "go-zero RedisLock.Release (Lua release)"
	return err
}
