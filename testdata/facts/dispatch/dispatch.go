// Package dispatch hands an order to a courier under a lock, through the
// service's own helpers.
package dispatch

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/facts/store"
	"example.com/facts/tokens"
)

const unlock = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

// Dispatch assigns the order under its lock.
func Dispatch(ctx context.Context, rdb *redis.Client, orderID string) error {
	c := store.New(rdb)
	key := "lock:dispatch:" + orderID
	token := tokens.Courier()
	ok, err := c.SetNX(ctx, key, token, 30*time.Second) // LA107: the token comes from math/rand, through tokens.Courier
	if err != nil || !ok {
		return err
	}

	// ... assign the courier ...

	_, _ = store.Release(ctx, rdb, key, token) // LA101, LA108: store.Release's Lua compare-and-delete on a lock key, DELIFEQ does this natively; whether the lock was still ours goes unread
	return nil
}

// Cancel drops the assignment under the lock and releases it with Lua.
func Cancel(ctx context.Context, c store.Client, orderID, token string) error {
	n, err := c.Eval(ctx, unlock, []string{"lock:dispatch:" + orderID}, token) // LA101: sent through store.Client.Eval, DELIFEQ does this natively
	if err != nil || n == 0 {
		return err
	}
	return nil
}
