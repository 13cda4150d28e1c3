// Package valkeygo: LA103 on valkey-go.
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func runLocked(ctx context.Context, c valkey.Client, id, token string) error {
	key := "job:" + id
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(30*time.Second).Build()).Error(); err != nil {
		return err
	}
	defer c.Do(ctx, c.B().Del().Key(key).Build())     // want "^plain DEL of lock key `key` deletes"
	c.Do(ctx, c.B().Unlink().Key("lock:"+id).Build()) // want "^plain UNLINK of lock key `\"lock:\" \\+ id` deletes"
	del := c.B().Getdel().Key("lock:" + id).Build()
	return c.Do(ctx, del).Error() // want "^plain GETDEL of lock key `\"lock:\" \\+ id`"
}

func negatives(ctx context.Context, c valkey.Client, id, token string) {
	c.Do(ctx, c.B().Del().Key("cache:"+id).Build())
	c.Do(ctx, c.B().Delifeq().Key("lock:"+id).Value(token).Build())
}
