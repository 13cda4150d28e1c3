package goredis

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

// Cache invalidation: not lock keys.
func invalidate(ctx context.Context, rdb *redis.Client, id string, keys []string) {
	rdb.Del(ctx, "user:"+id)
	rdb.Del(ctx, "block:7", "clock", "mylock", "unlocked:"+id)
	rdb.Del(ctx, keys...)
}

// A key passed in: nothing says it is a lock.
func delKey(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

// The optimistic compare-and-delete: WATCH, GET, then DEL in MULTI.
func releaseWatched(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, "lock:"+key).Result()
		if err != nil {
			return err
		}
		if v != token {
			return errors.New("lock lost")
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, "lock:"+key)
			return nil
		})
		return err
	}, "lock:"+key)
}

// Owner-checked releases are other rules' business.
func native(ctx context.Context, rdb *redis.Client, token string) {
	n, _ := rdb.Do(ctx, "DELIFEQ", "lock:job", token).Int()
	_ = n
}
