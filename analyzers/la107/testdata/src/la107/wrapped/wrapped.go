// Package wrapped: tokens passed to the package's own acquire wrappers are
// judged at the call that passes them; a token a wrapper fixes, in the
// wrapper.
package wrapped

import (
	"context"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct{ rdb *redis.Client }

func (l *Locker) TryLock(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return l.rdb.SetNX(ctx, key, token, ttl).Result()
}

func (l *Locker) Unlock(ctx context.Context, key string) error { return l.rdb.Del(ctx, key).Err() }

var acquire = redis.NewScript(`return redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`)

func (l *Locker) RunAcquire(ctx context.Context, keys []string, args ...any) (any, error) {
	return acquire.Run(ctx, l.rdb, keys, args...).Result()
}

func (l *Locker) lockAsHost(ctx context.Context, key string) (bool, error) {
	host, _ := os.Hostname()
	return l.rdb.SetNX(ctx, "lock:"+key, host, time.Minute).Result() // want `it comes from os\.Hostname;`
}

func use(ctx context.Context, l *Locker) {
	l.TryLock(ctx, "lock:job", "worker-1", time.Minute)        // want `^lock token written in TryLock is not unique per acquisition: it comes from the constant "worker-1";`
	l.RunAcquire(ctx, []string{"lock:job"}, "worker-1", 30000) // want `^lock token written in RunAcquire is not unique per acquisition`
	l.lockAsHost(ctx, "job")                                   // the wrapper's own token: reported there
}
