// Package valkeygo: LA106 fixes on valkey-go: SET NX then EXPIRE becomes
// SET NX EX. The functions' names say lock (lock evidence).
package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func acquireLock(ctx context.Context, c valkey.Client, key, token string) error {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build()).Error(); err != nil { // want `SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE`
		return err
	}
	if err := c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Build()).Error(); err != nil {
		return err
	}
	return nil
}

func millisLock(ctx context.Context, c valkey.Client, key, token string, ms int64) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build()) // want `SET NX without EX/PX/EXAT/PXAT, then a separate PEXPIRE`
	c.Do(ctx, c.B().Pexpire().Key(key).Milliseconds(ms).Build())
}

// Negatives.

func legacyLock(ctx context.Context, c valkey.Client, key, token string) {
	c.Do(ctx, c.B().Setnx().Key(key).Value(token).Build()) // nofix: SETNX replies 1/0, SET NX OK/nil // want `SETNX, then a separate EXPIRE`
	c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Build())
}

func conditionalLock(ctx context.Context, c valkey.Client, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Build()) // nofix: EXPIRE ... NX // want `then a separate EXPIRE`
	c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Nx().Build())
}
