// Package valkeygo: LA110 on valkey-go with pgxpool.
package valkeygo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valkey-io/valkey-go"
)

func unfenced(ctx context.Context, c valkey.Client, pool *pgxpool.Pool, token string) error {
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{j}").Build(),
		c.B().Exec().Build())
	if err := res[0].Error(); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, "UPDATE jobs SET done = true") // want `^write pool\.Exec under the lock of a\.go:13 does not pass the fence of a\.go:13: pass it and check it in the write \(WHERE fence < \$f\)$`
	return err
}

func fenced(ctx context.Context, c valkey.Client, pool *pgxpool.Pool, token string) error {
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{j}").Build(),
		c.B().Exec().Build())
	fence, err := res[3].AsInt64()
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, "UPDATE jobs SET fence = $1 WHERE fence < $1", fence)
	return err
}
