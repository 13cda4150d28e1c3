package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

// The package takes locks, so its compare-and-delete scripts are lock
// releases whatever their names (lock evidence).
func acquire(ctx context.Context, c valkey.Client, key, token string) error {
	return c.Do(ctx, c.B().Set().Key("lock:"+key).Value(token).Nx().PxMilliseconds(30000).Build()).Error()
}
