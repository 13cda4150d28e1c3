package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func extend(ctx context.Context, c valkey.Client, key, token string, ttl time.Duration) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Build())           // want `SET IFEQ without EX/PX/EXAT/PXAT`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Keepttl().Build()) // want `SET IFEQ with KEEPTTL`
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Get().Build())     // want `SET IFEQ without EX/PX/EXAT/PXAT`
	cmd := c.B().Set().Key(key).Value(token).Ifeq(token)
	c.Do(ctx, cmd.Build())                                                         // want `SET IFEQ without EX/PX/EXAT/PXAT`
	c.Do(ctx, c.B().Arbitrary("SET").Keys(key).Args(token, "IFEQ", token).Build()) // want `SET IFEQ without EX/PX/EXAT/PXAT`

	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Px(ttl).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).PxMilliseconds(30000).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Ifeq(token).Get().Exat(time.Now().Add(ttl)).Build())
	c.Do(ctx, c.B().Set().Key(key).Value(token).Build())
}
