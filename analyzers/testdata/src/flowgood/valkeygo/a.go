// Package valkeygo is the native lock pattern done right on valkey-go.
package valkeygo

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valkey-io/valkey-go"
)

var errLost = errors.New("lock lost")

func Run(ctx context.Context, c valkey.Client, pool *pgxpool.Pool, job string) error {
	token := uuid.NewString()
	lock, fence := "lock:{"+job+"}", "fence:{"+job+"}"
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key(lock).Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key(fence).Build(),
		c.B().Exec().Build())
	for _, r := range res {
		if err := r.Error(); err != nil && !valkey.IsValkeyNil(err) {
			return err
		}
	}
	f, err := res[3].AsInt64()
	if err != nil {
		return err
	}
	if err := c.Do(ctx, c.B().Set().Key(lock).Value(token).Ifeq(token).PxMilliseconds(30000).Build()).Error(); err != nil {
		return errLost
	}
	if _, err := pool.Exec(ctx, "UPDATE jobs SET fence = $1 WHERE id = $2 AND fence < $1", f, job); err != nil {
		return err
	}
	n, err := c.Do(ctx, c.B().Delifeq().Key(lock).Value(token).Build()).AsInt64()
	if err == nil && n == 0 {
		return errLost
	}
	return err
}
