package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

func extend(ctx context.Context, c *glide.Client, key, token string, ttl time.Duration, opts *options.SetOptions) {
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token))                                            // want `SET IFEQ without EX/PX/EXAT/PXAT`
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryKeepExisting())) // want `SET IFEQ with KEEPTTL`
	o := options.NewSetOptions().SetOnlyIfEquals(token)
	c.SetWithOptions(ctx, key, token, *o) // want `SET IFEQ without EX/PX/EXAT/PXAT`

	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(ttl)))
	withTTL := options.NewSetOptions().SetOnlyIfEquals(token)
	withTTL.SetExpiry(options.NewExpiryIn(ttl))
	c.SetWithOptions(ctx, key, token, *withTTL)
	c.SetWithOptions(ctx, key, token, *opts)
	c.CustomCommand(ctx, []string{"SET", key, token, "IFEQ", token, "PX", "30000"})
}
