// Package helperuse drops the outcome of another package's release
// helpers (la108/helperlib).
package helperuse

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la108/helperlib"
)

func use(ctx context.Context, rdb *redis.Client, c helperlib.Client, token string) {
	_, _ = helperlib.Release(ctx, rdb, "lock:a", token) // want `^reply of the Lua release in helperlib\.Release is discarded`
	c.DelIfEq(ctx, "lock:a", token)                     // want `^reply of DELIFEQ in DelIfEq is discarded`

	if ok, err := helperlib.Release(ctx, rdb, "lock:a", token); err != nil || !ok {
		return
	}
	if n, err := c.DelIfEq(ctx, "lock:a", token); err != nil || n == 0 {
		return
	}
}
