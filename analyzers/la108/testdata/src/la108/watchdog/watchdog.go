// Package watchdog: a watchdog that drops the outcome of the package's own
// extend helper, which returns an error when the extend found another
// owner (xiaoxuxiansheng/redis_lock's DelayExpire).
package watchdog

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const checkAndExpire = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) end return 0`

var errNotOwner = errors.New("not owner")

type RedisLock struct {
	rdb        *redis.Client
	key, token string
}

func (r *RedisLock) runWatchDog(ctx context.Context) {
	ticker := time.NewTicker(10 * time.Second)
	defer ticker.Stop()
	for range ticker.C {
		select {
		case <-ctx.Done():
			return
		default:
		}
		_ = r.DelayExpire(ctx, 15) // want `^reply of the Lua extend in DelayExpire is discarded`
	}
}

// Negative: the watchdog stops when the extend found another owner.
func (r *RedisLock) watchChecked(ctx context.Context) {
	ticker := time.NewTicker(10 * time.Second)
	defer ticker.Stop()
	for range ticker.C {
		if err := r.DelayExpire(ctx, 15); err != nil {
			return
		}
	}
}

func (r *RedisLock) DelayExpire(ctx context.Context, expireSeconds int64) error {
	reply, err := r.rdb.Eval(ctx, checkAndExpire, []string{r.key}, r.token, expireSeconds).Result()
	if err != nil {
		return err
	}
	if ret, _ := reply.(int64); ret != 1 {
		return errNotOwner
	}
	return nil
}
