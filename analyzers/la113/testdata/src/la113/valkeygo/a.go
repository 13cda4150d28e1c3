// Package valkeygo: LA113 on valkey-go.
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func untagged(ctx context.Context, c valkey.Client, id, token string) []valkey.ValkeyResult {
	return c.DoMulti(ctx, // want "^lock key `\"lock:\" \\+ id` and fence key `\"fence:\" \\+ id` in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\\.g\\. lock:\\{job\\} and fence:\\{job\\}$"
		c.B().Multi().Build(),
		c.B().Set().Key("lock:"+id).Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:"+id).Build(),
		c.B().Exec().Build())
}

func tagged(ctx context.Context, c valkey.Client, id, token string) []valkey.ValkeyResult {
	return c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{"+id+"}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{"+id+"}").Build(),
		c.B().Exec().Build())
}
