package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func conflicts(ctx context.Context, c valkey.Client, key, token string) {
	c.Do(ctx, c.B().Arbitrary("SET").Keys(key).Args(token, "NX", "IFEQ", token, "PX", "30000").Build()) // want `SET with both IFEQ and NX`

	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).PxMilliseconds(30000).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build())
}
