// Package helperlib is a project's lock helper package used by
// la108/helperuse.
package helperlib

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

// Release returns whether key was still token's and is now released.
func Release(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	n, err := release.Run(ctx, rdb, []string{key}, token).Int()
	return n == 1, err
}

// Client is the project's client interface; its implementation forwards
// DELIFEQ to go-redis.
type Client interface {
	DelIfEq(ctx context.Context, key, token string) (int64, error)
}

type client struct{ rdb *redis.Client }

func New(rdb *redis.Client) Client { return client{rdb} }

func (c client) DelIfEq(ctx context.Context, key, token string) (int64, error) {
	return c.rdb.Do(ctx, "DELIFEQ", key, token).Int64()
}
