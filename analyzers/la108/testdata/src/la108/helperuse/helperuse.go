// Package helperuse drops the outcome of another package's release
// helpers (la108/helperlib).
package helperuse

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la108/helperlib"
)

func use(ctx context.Context, rdb *redis.Client, c helperlib.Client, token string) {
	_, _ = helperlib.Release(ctx, rdb, "lock:a", token) // want `^reply of the Lua release script \(EVALSHA "lock:a"\) through Release \(helperlib\.go:15\) is discarded`
	c.DelIfEq(ctx, "lock:a", token)                     // want `^reply of DELIFEQ "lock:a" through DelIfEq \(helperlib\.go:30\) is discarded`

	if ok, err := helperlib.Release(ctx, rdb, "lock:a", token); err != nil || !ok {
		return
	}
	if n, err := c.DelIfEq(ctx, "lock:a", token); err != nil || n == 0 {
		return
	}
}
