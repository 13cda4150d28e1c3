// Package redis_lock: a lock package whose client also has generic
// methods named for the commands they send (xiaoxuxiansheng/redis_lock's
// Client.SetNX). The package's name is no evidence for such a wrapper: it
// is judged at its callers.
package redis_lock

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

type Client struct{ pool *redis.Pool }

// The generic SET NX of the caller's key: silent here.
func (c *Client) SetNX(ctx context.Context, key, value string) (int64, error) {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return -1, err
	}
	defer conn.Close()
	return redis.Int64(conn.Do("SET", key, value, "NX"))
}

// The same with a Ctx suffix and go-redis-like SETNX: silent here too.
func (c *Client) SetnxCtx(ctx context.Context, key, value string) (bool, error) {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	return redis.Bool(conn.Do("SETNX", key, value))
}

// A wrapper named for a lock step, not a command: the package's name
// says lock, so it is judged where it is.
func (c *Client) Acquire(ctx context.Context, key, value string) error {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Do("SET", key, value, "NX") // want `^SET NX without EX/PX/EXAT/PXAT: a client`
	return err
}

// A lock acquired through the generic wrapper without a TTL is reported
// at the caller.
type RedisLock struct {
	client     *Client
	key, token string
}

func (r *RedisLock) TryLock(ctx context.Context) error {
	_, err := r.client.SetNX(ctx, r.key, r.token) // want `^SET NX without EX/PX/EXAT/PXAT in SetNX: a client`
	return err
}

func (r *RedisLock) TryLockLegacy(ctx context.Context) (bool, error) {
	return r.client.SetnxCtx(ctx, r.key, r.token) // want `^SETNX in SetnxCtx cannot set a TTL`
}
