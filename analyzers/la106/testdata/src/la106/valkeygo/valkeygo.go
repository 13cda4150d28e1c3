package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func acquire(ctx context.Context, c valkey.Client, token string, ttl time.Duration, force bool) {
	c.Do(ctx, c.B().Set().Key("lock:a").Value(token).Nx().Build()) // want `SET NX without EX/PX/EXAT/PXAT: a client`
	c.Do(ctx, c.B().Setnx().Key("lock:b").Value(token).Build())    // want `SETNX, then a separate PEXPIRE of the same key \(line 13\)`
	c.Do(ctx, c.B().Pexpire().Key("lock:b").Milliseconds(30000).Build())
	nx := c.B().Set().Key("lock:c").Value(token).Nx()
	c.Do(ctx, nx.Build()) // want `SET NX without EX/PX/EXAT/PXAT: a client`

	c.Do(ctx, c.B().Set().Key("lock:ok").Value(token).Nx().Px(ttl).Build())
	c.Do(ctx, c.B().Set().Key("lock:ok").Value(token).Nx().Get().PxMilliseconds(1000).Build())
	cmd := c.B().Set().Key("lock:maybe").Value(token).Nx().Px(ttl).Build()
	if force {
		cmd = c.B().Set().Key("lock:maybe").Value(token).Nx().Build()
	}
	c.Do(ctx, cmd) // two possible commands: not certain
}
