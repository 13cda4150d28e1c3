// Package evalwrapper: a lock whose scripts run through the package's own
// client interface, implemented by a redigo client that forwards its
// Eval(src, keyCount, keysAndArgs) as EVAL (xiaoxuxiansheng/redis_lock).
package evalwrapper

import (
	"context"
	"errors"

	"github.com/gomodule/redigo/redis"
)

const releaseScript = `
  local lockerKey = KEYS[1]
  local targetToken = ARGV[1]
  local getToken = redis.call('get', lockerKey)
  if (not getToken or getToken ~= targetToken) then
    return 0
  else
    return redis.call('del', lockerKey)
  end`

const extendScript = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('expire', KEYS[1], ARGV[2]) else return 0 end`

type LockClient interface {
	SetNEX(ctx context.Context, key, value string, expireSeconds int64) (int64, error)
	Eval(ctx context.Context, src string, keyCount int, keysAndArgs []interface{}) (interface{}, error)
}

type Client struct{ conn redis.Conn }

func (c *Client) SetNEX(ctx context.Context, key, value string, expireSeconds int64) (int64, error) {
	reply, err := c.conn.Do("SET", key, value, "EX", expireSeconds, "NX")
	if reply == nil {
		return 0, err
	}
	return 1, err
}

// Eval copies the source, the key count and the caller's list into one
// argument slice.
func (c *Client) Eval(ctx context.Context, src string, keyCount int, keysAndArgs []interface{}) (interface{}, error) {
	args := make([]interface{}, 2+len(keysAndArgs))
	args[0] = src
	args[1] = keyCount
	copy(args[2:], keysAndArgs)
	return c.conn.Do("EVAL", args...)
}

type RedisLock struct {
	key, token string
	client     LockClient
}

func (r *RedisLock) Lock(ctx context.Context) error {
	n, err := r.client.SetNEX(ctx, r.key, r.token, 30)
	if err == nil && n != 1 {
		return errors.New("taken")
	}
	return err
}

func (r *RedisLock) Unlock(ctx context.Context) error {
	keysAndArgs := []interface{}{r.key, r.token}
	reply, err := r.client.Eval(ctx, releaseScript, 1, keysAndArgs) // want `Lua lock script \(release\)`
	if err != nil {
		return err
	}
	if ret, _ := reply.(int64); ret != 1 {
		return errors.New("not held")
	}
	return nil
}

func (r *RedisLock) DelayExpire(ctx context.Context, seconds int64) error {
	keysAndArgs := []interface{}{r.key, r.token, seconds}
	reply, err := r.client.Eval(ctx, extendScript, 1, keysAndArgs) // want `Lua lock script \(extend\)`
	if err != nil {
		return err
	}
	if ret, _ := reply.(int64); ret != 1 {
		return errors.New("not held")
	}
	return nil
}
