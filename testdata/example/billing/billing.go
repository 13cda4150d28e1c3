// Package billing locks invoices with valkey-go.
package billing

import (
	"context"

	"github.com/valkey-io/valkey-go"

	"example.com/orders/lock"
)

// releaseScript is the classic Lua compare-and-delete.
var releaseScript = valkey.NewLuaScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`) // LA101: DELIFEQ does this natively

// Invoice issues an invoice under the invoice's lock and releases it with
// the Lua script.
func Invoice(ctx context.Context, c valkey.Client, invoiceID string) error {
	lockKey, _ := lock.Keys("invoice", invoiceID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(lockKey).Value(token).Nx().Px(lock.TTL).Build()).Error(); err != nil {
		if valkey.IsValkeyNil(err) {
			return lock.ErrBusy
		}
		return err
	}
	c.Do(ctx, c.B().Wait().Numreplicas(1).Timeout(100).Build()) // LA115: the number of replicas that have the lock is never read

	// ... issue the invoice ...

	n, err := releaseScript.Exec(ctx, c, []string{lockKey}, []string{token}).AsInt64()
	if err != nil {
		return err
	}
	if n == 0 {
		return lock.ErrLost
	}
	return nil
}

// Void cancels an invoice under the invoice's lock.
func Void(ctx context.Context, c valkey.Client, invoiceID string) error {
	lockKey, _ := lock.Keys("invoice", invoiceID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(lockKey).Value(token).Nx().Px(lock.TTL).Build()).Error(); err != nil {
		return err
	}

	// ... void the invoice ...

	c.Do(ctx, c.B().Delifeq().Key(lockKey).Value(token).Build()) // LA108: a 0 reply (the lock was lost) goes unnoticed
	return nil
}

// Refund refunds an invoice under the invoice's lock: the native pattern on
// valkey-go, extending with SET IFEQ PX and releasing with DELIFEQ, every
// reply checked.
func Refund(ctx context.Context, c valkey.Client, invoiceID string) error {
	lockKey, _ := lock.Keys("invoice", invoiceID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(lockKey).Value(token).Nx().Px(lock.TTL).Build()).Error(); err != nil {
		return err
	}

	// ... ask the payment provider for the refund: slow, so keep the lease ...
	if err := c.Do(ctx, c.B().Set().Key(lockKey).Value(token).Ifeq(token).Px(lock.TTL).Build()).Error(); err != nil {
		if valkey.IsValkeyNil(err) {
			return lock.ErrLost
		}
		return err
	}

	// ... record the refund ...

	n, err := c.Do(ctx, c.B().Delifeq().Key(lockKey).Value(token).Build()).AsInt64()
	if err != nil {
		return err
	}
	if n == 0 {
		return lock.ErrLost
	}
	return nil
}
