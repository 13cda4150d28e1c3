// Package procuse: owner ids drawn by another package's process-identity
// helpers (la107/procid), judged by their Source facts.
package procuse

import (
	"context"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"

	"la107/procid"
)

type Client struct{ pool *redis.Pool }

// SetNX is the project's wrapper: one SET NX EX, the key and value its
// caller's.
func (c *Client) SetNX(ctx context.Context, key, value string, ttl int64) (interface{}, error) {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	return conn.Do("SET", key, value, "NX", "EX", ttl)
}

func (c *Client) Get(ctx context.Context, key string) (string, error) {
	conn, err := c.pool.GetContext(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	return redis.String(conn.Do("GET", key))
}

// ReentrantLock keeps the process_goroutine id drawn when it is built.
type ReentrantLock struct {
	key    string
	token  string
	client *Client
}

func NewReentrantLock(key string, client *Client) *ReentrantLock {
	return &ReentrantLock{key: key, token: procid.OwnerID(), client: client}
}

func (r *ReentrantLock) Lock(ctx context.Context, ttl int64) error {
	res, err := r.client.Get(ctx, "lock:"+r.key)
	if err != nil {
		return err
	}
	if res == r.token {
		return nil // re-entered
	}
	reply, err := r.client.SetNX(ctx, "lock:"+r.key, r.token, ttl) // want `^reentrant lock's owner id written in SetNX is not unique per owner: it comes from os\.Getpid and a goroutine id \(runtime\.Stack\); use crypto/rand once per owner$`
	if err != nil {
		return err
	}
	if reply == nil {
		return errors.New("held by another owner")
	}
	return nil
}

func pidToken(ctx context.Context, rdb *goredis.Client) {
	rdb.SetNX(ctx, "lock:job", procid.ProcessID(), time.Minute) // want `^lock token is not unique per acquisition: it comes from os\.Getpid;`
}

// Negatives: a pid beside crypto/rand, a caller's name.

func nonceToken(ctx context.Context, rdb *goredis.Client) {
	rdb.SetNX(ctx, "lock:job", procid.Nonce(), time.Minute)
}

func labelToken(ctx context.Context, rdb *goredis.Client, name string) {
	rdb.SetNX(ctx, "lock:job", procid.Label(name), time.Minute)
}
