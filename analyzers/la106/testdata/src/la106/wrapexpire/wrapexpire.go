// Package wrapexpire: a project's generic SetNX wrapper that sends SETNX
// and then, in a second round trip, EXPIRE (shape seen in the wild: a
// redigo client's SetNX(ctx, key, value, expireSeconds)). The wrapper's
// key is its caller's: silent there; a lock acquired through it has no
// atomic TTL, reported at that caller.
package wrapexpire

import (
	"context"
	"errors"

	"github.com/gomodule/redigo/redis"
)

type Client struct{ pool *redis.Pool }

func (c *Client) SetNX(ctx context.Context, key, value string, expireSeconds int64) (any, error) {
	if key == "" || value == "" {
		return -1, errors.New("empty key or value")
	}
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return -1, err
	}
	defer conn.Close()
	reply, err := conn.Do("SETNX", key, value)
	if err != nil {
		return -1, err
	}
	if r, _ := reply.(int64); r == 1 {
		_, _ = conn.Do("EXPIRE", key, expireSeconds)
	}
	return reply, nil
}

// The same pair sent atomically: SET NX EX.
func (c *Client) SetNXEx(ctx context.Context, key, value string, expireSeconds int64) (any, error) {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.Do("SET", key, value, "NX", "EX", expireSeconds)
}

const lockPrefix = "JOB_LOCK_"

type DistributeLock struct {
	key, token string
	client     *Client
}

func (l *DistributeLock) Lock(ctx context.Context, expireSeconds int64) error {
	reply, err := l.client.SetNX(ctx, lockPrefix+l.key, l.token, expireSeconds) // want `^SETNX in SetNX, then a separate EXPIRE \(wrapexpire\.go:31\): a crash in between leaves the lock forever`
	if err != nil {
		return err
	}
	if n, _ := reply.(int64); n != 1 {
		return errors.New("held by another")
	}
	return nil
}

// Negatives: the same wrapper for a marker, the atomic wrapper for a lock.

func markSent(ctx context.Context, c *Client, id string) {
	c.SetNX(ctx, "sent:"+id, "1", 3600)
}

func (l *DistributeLock) LockAtomic(ctx context.Context, expireSeconds int64) error {
	_, err := l.client.SetNXEx(ctx, lockPrefix+l.key, l.token, expireSeconds)
	return err
}
