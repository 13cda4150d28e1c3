// Package redislock is a stub of github.com/bsm/redislock (v0.9.4) for
// lockaudit's analyzer tests.
package redislock

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	ErrNotObtained = errors.New("redislock: not obtained")
	ErrLockNotHeld = errors.New("redislock: lock not held")
)

// RedisClient is a minimal client interface.
type RedisClient interface {
	redis.Scripter
}

type Client struct {
	client RedisClient
}

func New(client RedisClient) *Client { return &Client{client: client} }

func (c *Client) Obtain(ctx context.Context, key string, ttl time.Duration, opt *Options) (*Lock, error) {
	return &Lock{Client: c, key: key}, nil
}

type Lock struct {
	*Client
	key   string
	value string
}

func Obtain(ctx context.Context, client RedisClient, key string, ttl time.Duration, opt *Options) (*Lock, error) {
	return New(client).Obtain(ctx, key, ttl, opt)
}

func (l *Lock) Key() string   { return l.key }
func (l *Lock) Token() string { return l.value }

func (l *Lock) TTL(ctx context.Context) (time.Duration, error) { return 0, nil }

func (l *Lock) Refresh(ctx context.Context, ttl time.Duration, opt *Options) error { return nil }

func (l *Lock) Release(ctx context.Context) error { return nil }

type Options struct {
	RetryStrategy RetryStrategy
	Metadata      string
	Token         string
}

type RetryStrategy interface {
	NextBackoff() time.Duration
}

func NoRetry() RetryStrategy { return nil }
