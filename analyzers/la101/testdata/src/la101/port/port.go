// Package port is a lock library that takes any client through an
// interface of its own, implemented by adapters its users write: its
// scripts run through that interface's Eval.
package port

import (
	"context"
	"errors"
)

type RedisClient interface {
	SetNX(ctx context.Context, key string, value any, expireSeconds int64) (bool, error)
	Eval(ctx context.Context, script string, keys []string, args ...any) (any, error)
}

const (
	luaExtend = `local val = redis.call("get",KEYS[1])
if val and val ~= ARGV[1] then return val end
return redis.call("set",KEYS[1],ARGV[1],"EX",ARGV[2])`

	luaUnlock = `local val = redis.call("get",KEYS[1])
if not val then return "OK" end
if val ~= ARGV[1] then return val end
redis.call("del",KEYS[1])
return "OK"`
)

var errLost = errors.New("lock lost")

type Mutex struct {
	redis RedisClient
	key   string
	value string
}

func (m *Mutex) Lock(ctx context.Context, ttl int64) (bool, error) {
	return m.redis.SetNX(ctx, m.key, m.value, ttl)
}

func (m *Mutex) Extend(ctx context.Context, ttl int64) error {
	r, err := m.redis.Eval(ctx, luaExtend, []string{m.key}, m.value, ttl) // want `^Lua lock script \(extend\): use SET key token IFEQ token PX ttl instead$`
	if err != nil {
		return err
	}
	if r != "OK" {
		return errLost
	}
	return nil
}

func (m *Mutex) Unlock(ctx context.Context) error {
	r, err := m.redis.Eval(ctx, luaUnlock, []string{m.key}, m.value) // want `^Lua lock script \(release\): use DELIFEQ key token instead$`
	if err != nil {
		return err
	}
	if r != "OK" {
		return errLost
	}
	return nil
}
