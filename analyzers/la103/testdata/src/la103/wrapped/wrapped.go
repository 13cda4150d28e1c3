// Package wrapped: plain DELs through the project's own wrappers and its
// client interface: reported where the lock key is passed.
package wrapped

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Client is the project's client interface; its one implementation
// forwards to go-redis.
type Client interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
	Del(ctx context.Context, keys ...string) error
}

type client struct{ rdb *redis.Client }

func (c client) SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c client) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err()
}

func jobKey(id string) string { return "job:" + id }

func deleteKey(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

// The name says lock: the SET NX through the interface takes one (lock
// evidence at the caller), so the DELs of its key are plain releases.
func withJobLock(ctx context.Context, c Client, rdb *redis.Client, id, token string) {
	if ok, _ := c.SetNX(ctx, jobKey(id), token, time.Minute); !ok {
		return
	}
	c.Del(ctx, jobKey(id))           // want "^plain DEL in Del of lock key `jobKey\\(id\\)` deletes whoever holds it"
	deleteKey(ctx, rdb, jobKey(id))  // want "^plain DEL in deleteKey of lock key `jobKey\\(id\\)` deletes"
	deleteKey(ctx, rdb, "cache:"+id) // not a lock key
	c.Del(ctx, "cache:"+id)          // nor this
}

// Negative: the same calls without lock evidence (no lock-key pattern, no
// owner check, no name that says lock) set and clear a marker.
func markSeen(ctx context.Context, c Client, rdb *redis.Client, id string) {
	if ok, _ := c.SetNX(ctx, seenKey(id), "1", time.Minute); !ok {
		return
	}
	c.Del(ctx, seenKey(id))
	deleteKey(ctx, rdb, seenKey(id))
}

func seenKey(id string) string { return "seen:" + id }
