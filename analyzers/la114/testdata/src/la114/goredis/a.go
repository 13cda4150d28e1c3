// Package goredis: LA114 on go-redis v9.
package goredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// The name says lease: lock evidence for the key it acquires.
func leaseHeartbeat(ctx context.Context, rdb *redis.Client, id, token string) {
	if ok, _ := rdb.SetNX(ctx, fmt.Sprintf("job:%s", id), token, ttl).Result(); !ok {
		return
	}
	for range 3 {
		rdb.PExpire(ctx, fmt.Sprintf("job:%s", id), ttl) // want "^PEXPIRE of lock key `fmt\\.Sprintf\\(\"job:%s\", id\\)` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
	}
}

func extendAll(ctx context.Context, rdb redis.UniversalClient, id string) {
	rdb.Expire(ctx, "lock:"+id, ttl)                    // want "^EXPIRE of lock key `\"lock:\" \\+ id` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
	rdb.ExpireAt(ctx, "lock:"+id, time.Now().Add(ttl))  // want `^EXPIREAT of lock key`
	rdb.PExpireAt(ctx, "lock:"+id, time.Now().Add(ttl)) // want `^PEXPIREAT of lock key`
	rdb.Do(ctx, "pexpire", "lock:"+id, 30000)           // want `^PEXPIRE of lock key`
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.PExpire(ctx, "lock:"+id, ttl) // want `^PEXPIRE of lock key`
		return nil
	})
}

// Negatives.

// SETNX then EXPIRE is LA106's finding (acquire without TTL), not an extend.
func legacyAcquire(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:legacy", token, 0)
	rdb.Expire(ctx, "lock:legacy", ttl)
}

// Expiring a cache key is not an extend.
func cache(ctx context.Context, rdb *redis.Client, id string, key string) {
	rdb.Expire(ctx, "session:"+id, time.Hour)
	rdb.PExpire(ctx, key, time.Hour)
}

// An optimistic compare-and-extend: WATCH/GET, then PEXPIRE in MULTI.
func watched(ctx context.Context, rdb *redis.Client, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if v, _ := tx.Get(ctx, "lock:w").Result(); v != token {
			return redis.Nil
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.PExpire(ctx, "lock:w", ttl)
			return nil
		})
		return err
	}, "lock:w")
}

// A TTL-less acquire of another key does not excuse the extend.
func otherKey(ctx context.Context, rdb *redis.Client, a, b, token string) {
	rdb.SetNX(ctx, "res:"+a+":lock", token, 0)
	rdb.Expire(ctx, "res:"+b+":lock", ttl) // want "^EXPIRE of lock key `\"res:\" \\+ b \\+ \":lock\"` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
}

// A SET of the lock's token with a TTL and no IFEQ, outside the acquire:
// an extend that overwrites whoever holds the lock now. Re-writing another
// value (a marker) is not an extend.
type renewer struct {
	rdb   *redis.Client
	key   string
	token string
}

func (r *renewer) TryLock(ctx context.Context) (bool, error) {
	return r.rdb.SetNX(ctx, r.key, r.token, ttl).Result()
}

func (r *renewer) Refresh(ctx context.Context) error {
	return r.rdb.Set(ctx, r.key, r.token, ttl).Err() // want "^SET of lock key `r.key` without IFEQ re-writes its token: it extends whoever holds it now; use SET key token IFEQ token PX ttl and stop when it fails$"
}

func (r *renewer) markDraining(ctx context.Context) error {
	return r.rdb.Set(ctx, r.key, "draining", ttl).Err()
}
