// Package evidence: a SET NX without a TTL is a lock acquire only with lock
// evidence. State flags, markers and generic wrappers are not locks.
package evidence

import (
	"context"
	"time"

	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

// Negatives.

type RDB struct{ client *redis.Client }

func pausedKey(queue string) string { return "queues:" + queue + ":paused" }

// Pause sets the queue's "paused" flag: no TTL on purpose, it must persist
// until Unpause clears it (with a plain DEL, which is no evidence).
func (r *RDB) Pause(ctx context.Context, queue string) error {
	return r.client.SetNX(ctx, pausedKey(queue), time.Now().Unix(), 0).Err()
}

func (r *RDB) Unpause(ctx context.Context, queue string) error {
	return r.client.Del(ctx, pausedKey(queue)).Err()
}

// A client library's generic wrappers: key and value are the caller's.
type Client struct {
	rdb *redis.Client
	old *redis8.Client
}

func (c *Client) SetNX(ctx context.Context, key string, value any) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, 0).Result()
}

func (c *Client) MSetNX(ctx context.Context, pairs ...any) error {
	return c.rdb.Do(ctx, append([]any{"MSETNX"}, pairs...)...).Err()
}

// A rate-limit store's "set if absent, then expire" (legacy SETNX on
// go-redis v8).
func (c *Client) SetIfNotExistsWithTTL(ctx context.Context, key string, value int64, ttl time.Duration) bool {
	ok := c.old.SetNX(ctx, key, value, 0).Val()
	if ok {
		c.old.Expire(ctx, key, ttl)
	}
	return ok
}

// Their callers judge them: a marker is no lock...
func markSeen(ctx context.Context, c *Client, id string) {
	c.SetNX(ctx, "seen:"+id, 1)
}

// ... a key whose caller says lock is one, and the wrapper left its TTL out.
func acquireJobLock(ctx context.Context, c *Client, job, token string) bool {
	ok, _ := c.SetNX(ctx, "job:"+job, token) // want `^SET NX without EX/PX/EXAT/PXAT in SetNX: a client`
	return ok
}

// A wrapper whose name says lock is judged where it is, once.
func (c *Client) TryLock(ctx context.Context, key, token string) bool {
	return c.rdb.SetNX(ctx, key, token, 0).Val() // want `^SET NX without EX/PX/EXAT/PXAT: a client`
}

func useTryLock(ctx context.Context, c *Client) {
	c.TryLock(ctx, "job:a", "t")
}

// A GET compared with a constant reads a state, it is no owner check.
func (c *Client) Enable(ctx context.Context, feature string) bool {
	c.rdb.SetNX(ctx, "feature:"+feature, "on", 0)
	return c.rdb.Get(ctx, "feature:"+feature).Val() == "on"
}

// Positives: the same commands with lock evidence.

// The receiver's name says lock.
type Mutex struct {
	rdb         *redis.Client
	name, token string
}

func (m *Mutex) Lock(ctx context.Context) error {
	return m.rdb.SetNX(ctx, m.name, m.token, 0).Err() // want `^SET NX without EX/PX/EXAT/PXAT: a client`
}

// The function's name says leader.
func claimLeader(ctx context.Context, rdb *redis.Client, group, id string) bool {
	return rdb.SetNX(ctx, "election:"+group, id, 0).Val() // want `^SET NX without EX/PX/EXAT/PXAT: a client`
}

// The same key shape has an owner check: a GET compared with the token.
func take(ctx context.Context, rdb *redis.Client, job, token string) bool {
	return rdb.SetNX(ctx, "job:"+job, token, 0).Val() // want `^SET NX without EX/PX/EXAT/PXAT: a client`
}

func give(ctx context.Context, rdb *redis.Client, job, token string) {
	if rdb.Get(ctx, "job:"+job).Val() == token {
		rdb.Del(ctx, "job:"+job)
	}
}

// The same key shape has an owner-checked release.
func claim(ctx context.Context, rdb *redis.Client, task, token string) bool {
	return rdb.SetNX(ctx, "task:"+task, token, 0).Val() // want `^SET NX without EX/PX/EXAT/PXAT: a client`
}

func unclaim(ctx context.Context, rdb *redis.Client, task, token string) {
	rdb.Do(ctx, "DELIFEQ", "task:"+task, token)
}
