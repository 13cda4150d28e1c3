// Package valkeygo: LA107 on valkey-go.
package valkeygo

import (
	"context"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/valkey-io/valkey-go"
)

func acquire(ctx context.Context, c valkey.Client) error {
	h, _ := os.Hostname()
	return c.Do(ctx, c.B().Set().Key("lock:job").Value(h).Nx().Px(30*time.Second).Build()).Error() // want `^lock token is not unique per acquisition: it comes from os\.Hostname;`
}

func fine(ctx context.Context, c valkey.Client) error {
	cmd := c.B().Set().Key("lock:job").Value(uuid.NewString()).Nx().Px(30 * time.Second).Build()
	return c.Do(ctx, cmd).Error()
}
