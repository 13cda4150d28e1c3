// Package gozero: go-zero's RedisLock acquires and releases with Lua; its
// Redis wrapper's own commands are native.
package gozero

import (
	"context"

	"github.com/zeromicro/go-zero/core/stores/redis"
)

func job(ctx context.Context, rds *redis.Redis) error {
	lock := redis.NewRedisLock(rds, "job") // building the lock sends nothing
	lock.SetExpire(30)
	ok, err := lock.AcquireCtx(ctx) // want `^RedisLock.AcquireCtx \(acquire\) runs Lua: lock with SET key token NX PX ttl and DELIFEQ key token instead of the library$`
	if !ok || err != nil {
		return err
	}
	defer lock.Release()                            // want `^RedisLock.Release \(release\)`
	_, err = rds.SetnxEx("lock:other", "token", 30) // a native command: not LA102's
	return err
}
