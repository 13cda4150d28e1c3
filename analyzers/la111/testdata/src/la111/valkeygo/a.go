// Package valkeygo: LA111 on valkey-go with pgxpool.
package valkeygo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valkey-io/valkey-go"
)

func run(ctx context.Context, c valkey.Client, pool *pgxpool.Pool, token string) error {
	res := c.DoMulti(ctx,
		c.B().Multi().Build(),
		c.B().Set().Key("lock:{j}").Value(token).Nx().Px(30*time.Second).Build(),
		c.B().Incr().Key("fence:{j}").Build(),
		c.B().Exec().Build())
	fence, err := res[3].AsInt64()
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, "INSERT INTO j (id, fence) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET fence = excluded.fence WHERE j.fence <= excluded.fence", fence) // want `^fence check "j\.fence <= excluded\.fence" passed to pool\.Exec is not strict, and a failover can repeat a fence: write "j\.fence < excluded\.fence"$`
	if err != nil {
		return err
	}
	_, err = pool.Exec(ctx, "UPDATE j SET fence = $1 WHERE j.fence < $1", fence)
	return err
}
