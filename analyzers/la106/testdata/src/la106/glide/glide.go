package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

func acquire(ctx context.Context, c *glide.Client, token string, ttl time.Duration) {
	c.SetWithOptions(ctx, "lock:a", token, *options.NewSetOptions().SetOnlyIfDoesNotExist()) // want `SET NX without EX/PX/EXAT/PXAT, then a separate PEXPIRE of the same key \(line 14\)`
	c.PExpire(ctx, "lock:a", ttl)
	c.CustomCommand(ctx, []string{"SETNX", "lock:b", token}) // want `SETNX cannot set a TTL`

	c.SetWithOptions(ctx, "lock:ok", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(ttl)))
	b := pipeline.NewStandaloneBatch(true)
	b.SetWithOptions("lock:ok", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(ttl)))
	c.Exec(ctx, *b, true)
}
