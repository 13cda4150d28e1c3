// Package mirror: the package's own client interface whose methods are
// go-redis's (result types aliased from go-redis) sends go-redis's
// commands, so a GET compared with the token in Go and a DEL in a second
// round trip through it is the race. A cache using the same interface, and
// an interface whose same-named methods return other types, are not.
package mirror

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type BoolCmd = redis.BoolCmd
type StringCmd = redis.StringCmd
type IntCmd = redis.IntCmd

type Client interface {
	SetNX(ctx context.Context, lk string, rv interface{}, duration time.Duration) *BoolCmd
	Get(ctx context.Context, lk string) *StringCmd
	Del(ctx context.Context, lk ...string) *IntCmd
}

type Lock struct {
	redisClient Client
	ttl         time.Duration
}

func lockKey(name string) string { return "app-lock-" + name }

func (l Lock) tryLock(ctx context.Context, name, rv string) (bool, func(context.Context), error) {
	lk := lockKey(name)
	ok, err := l.redisClient.SetNX(ctx, lk, rv, l.ttl).Result()
	if err != nil || !ok {
		return false, nil, err
	}
	return true, func(ctx context.Context) {
		getCmd := l.redisClient.Get(ctx, lk)
		if getCmd.Err() != nil {
			return
		}
		if getCmd.Val() != rv {
			return
		}
		l.redisClient.Del(ctx, lk) // want "^DEL of lock key `lk` races the GET check at line 39"
	}, nil
}

var _ Client = (*redis.Client)(nil)

// Negative: a cache through the same interface deletes what it read,
// comparing with nothing.
type Cache struct{ c Client }

func (c Cache) Take(ctx context.Context, key string) (string, error) {
	v, err := c.c.Get(ctx, "cache:"+key).Result()
	if err != nil {
		return "", err
	}
	c.c.Del(ctx, "cache:"+key)
	return v, nil
}

// Negative: same names, other types: the project's own store, not
// go-redis's commands.
type Store interface {
	Get(ctx context.Context, lk string) (string, error)
	Del(ctx context.Context, lk ...string) error
}

func release(ctx context.Context, s Store, name, token string) error {
	lk := lockKey(name)
	v, err := s.Get(ctx, lk)
	if err != nil || v != token {
		return err
	}
	return s.Del(ctx, lk)
}
