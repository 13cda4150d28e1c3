// Package valkeygo: LA104 fixes on valkey-go builders. The extend gets the
// acquire's expiry step.
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

const lease = 20 * time.Second

const key = "lock:billing"

func acquire(ctx context.Context, c valkey.Client, token string) error {
	return c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(lease).Build()).Error()
}

func extend(ctx context.Context, c valkey.Client, token string) error {
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Build()).Error(); err != nil { // want `SET IFEQ without EX/PX/EXAT/PXAT`
		return err
	}
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Get().Build())     // want `SET IFEQ without EX/PX/EXAT/PXAT`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Keepttl().Build()) // want `SET IFEQ with KEEPTTL`
	cmd := c.B().Set().Key(key).Value(token).Ifeq(token)
	c.Do(ctx, cmd.Build()) // want `SET IFEQ without EX/PX/EXAT/PXAT`
	return nil
}

// Counted leases keep their unit.
func millis(ctx context.Context, c valkey.Client, token string) {
	c.Do(ctx, c.B().Set().Key("lock:ms").Value(token).Nx().PxMilliseconds(30000).Build())
	c.Do(ctx, c.B().Set().Key("lock:ms").Value(token).Ifeq(token).Build()) // want `SET IFEQ without EX/PX/EXAT/PXAT`
}

func secs(ctx context.Context, c valkey.Client, token string) {
	c.Do(ctx, c.B().Arbitrary("SET").Keys("lock:s").Args(token, "NX", "EX", "30").Build())
	c.Do(ctx, c.B().Set().Key("lock:s").Value(token).Ifeq(token).Build()) // nofix: the count is a string // want `SET IFEQ without`
}

// Negatives.

func absolute(ctx context.Context, c valkey.Client, token string, at time.Time) {
	c.Do(ctx, c.B().Set().Key("lock:abs").Value(token).Nx().Pxat(at).Build())
	c.Do(ctx, c.B().Set().Key("lock:abs").Value(token).Ifeq(token).Build()) // nofix: PXAT is no lease // want `SET IFEQ without`
}

func arbitrary(ctx context.Context, c valkey.Client, key, token string) {
	c.Do(ctx, c.B().Arbitrary("SET").Keys(key).Args(token, "IFEQ", token).Build()) // nofix: Args takes strings // want `SET IFEQ without`
}
