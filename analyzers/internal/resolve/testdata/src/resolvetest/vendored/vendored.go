// Package vendored calls a client vendored GOPATH-style.
package vendored

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func acquire(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:a", "t", 0) // want `^\QSET key="lock:a" value="t" NX ttl=none client=go-redis/v9\E$`
}
