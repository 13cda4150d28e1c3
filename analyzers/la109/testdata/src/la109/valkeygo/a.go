// Package valkeygo: LA109 on valkey-go.
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func separate(ctx context.Context, c valkey.Client, token string) (int64, error) {
	if err := c.Do(ctx, c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build()).Error(); err != nil {
		return 0, err
	}
	return c.Do(ctx, c.B().Incr().Key("fence:{j}").Build()).AsInt64() // want `^fencing INCR "fence:\{j\}" and the SET NX at a\.go:12 are separate round trips: send both in one MULTI/EXEC$`
}

func pipelined(ctx context.Context, c valkey.Client, token string) []valkey.ValkeyResult {
	return c.DoMulti(ctx, // want `^fencing INCR "fence:\{j\}" and the SET NX at a\.go:19 are pipelined, not in one MULTI: send both in one MULTI/EXEC$`
		c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{j}").Build())
}

func together(ctx context.Context, c valkey.Client, token string) []valkey.ValkeyResult {
	return c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{j}").Build(),
		c.B().Exec().Build())
}
