// Package valkeygo: LA115 on valkey-go.
package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func positives(ctx context.Context, c valkey.Client) error {
	c.Do(ctx, c.B().Wait().Numreplicas(1).Timeout(100).Build())                // want `^reply of WAIT is discarded`
	c.Do(ctx, c.B().Waitaof().Numlocal(1).Numreplicas(1).Timeout(100).Build()) // want `^reply of WAITAOF is discarded`
	return c.Do(ctx, c.B().Wait().Numreplicas(1).Timeout(100).Build()).Error() // want `^only the error of WAIT is checked`
}

func negatives(ctx context.Context, c valkey.Client) (int64, error) {
	return c.Do(ctx, c.B().Wait().Numreplicas(1).Timeout(100).Build()).AsInt64()
}
