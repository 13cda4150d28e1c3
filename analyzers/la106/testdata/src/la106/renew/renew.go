// Package renew: the EXPIRE that completes a TTL-less acquire is the first
// one of the same key after it, not one that renews the lock in a loop or
// a goroutine (those are LA114's).
package renew

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func work(ctx context.Context, rdb *redis.Client, job, token string) {
	key := "lock:" + job
	if !rdb.SetNX(ctx, key, token, 0).Val() { // want `^SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE of the same key \(line 20\)`
		return
	}
	rdb.Expire(ctx, key, ttl)
	for i := 0; i < 10; i++ {
		rdb.Expire(ctx, key, ttl)
	}
}

func renewOnly(ctx context.Context, rdb *redis.Client, job, token string) {
	key := "lock:" + job
	rdb.SetNX(ctx, key, token, 0) // want `^SET NX without EX/PX/EXAT/PXAT: a client that crashes`
	for i := 0; i < 10; i++ {
		rdb.Expire(ctx, key, ttl)
	}
	go func() { rdb.Expire(ctx, key, ttl) }()
}
