package redislock

import (
	"context"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"
)

func job(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.Obtain(ctx, rdb, "job", time.Minute, nil) // want `^redislock.Obtain \(acquire\) runs Lua: lock with SET key token NX PX ttl and DELIFEQ key token instead of the library$`
	if err != nil {
		return err
	}
	defer lock.Release(ctx)                          // want `Lock.Release \(release\)`
	_ = lock.Refresh(ctx, time.Minute, nil)          // want `Lock.Refresh \(extend\)`
	_, _ = lock.TTL(ctx)                             // want `Lock.TTL \(ttl\)`
	c := redislock.New(rdb)                          // building the client sends nothing
	_, err = c.Obtain(ctx, "job2", time.Minute, nil) // want `Client.Obtain \(acquire\)`
	_ = lock.Key()
	_ = lock.Token()
	return err
}
