// Package app releases through the store.Locker interface, whose
// Redis-backed implementation is in another package of the module: a
// dropped outcome is judged by it.
package app

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la108/ifacemod/redisstore"
	"la108/ifacemod/store"
)

func New(rdb *redis.Client) store.Locker { return redisstore.New(rdb) }

func run(ctx context.Context, l store.Locker, key, token string) error {
	defer l.Unlock(ctx, key, token) // want `^reply of the Lua release in Unlock is discarded`
	if err := l.Unlock(ctx, key, token); err != nil {
		return err
	}
	return nil
}
