// Package valkeygo: LA114 on valkey-go.
package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func extend(ctx context.Context, c valkey.Client, id string) error {
	c.Do(ctx, c.B().Pexpire().Key("lock:"+id).Milliseconds(30000).Build())       // want "^PEXPIRE of lock key `\"lock:\" \\+ id`"
	return c.Do(ctx, c.B().Expire().Key("lock:"+id).Seconds(30).Build()).Error() // want "^EXPIRE of lock key `\"lock:\" \\+ id`"
}

func negatives(ctx context.Context, c valkey.Client, id, token string) {
	c.Do(ctx, c.B().Expire().Key("session:"+id).Seconds(3600).Build())
	c.Do(ctx, c.B().Set().Key("lock:"+id).Value(token).Ifeq(token).PxMilliseconds(30000).Build())
}
