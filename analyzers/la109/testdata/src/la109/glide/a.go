// Package glide: LA109 on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

var nx = *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))

func separate(ctx context.Context, c *glide.Client, token string) (int64, error) {
	if _, err := c.SetWithOptions(ctx, "lock:{j}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))); err != nil {
		return 0, err
	}
	return c.Incr(ctx, "fence:{j}") // want `^fencing INCR "fence:\{j\}" and the SET NX at a\.go:16 are separate round trips: send both in one MULTI/EXEC$`
}

func together(ctx context.Context, c *glide.Client, token string) ([]any, error) {
	b := pipeline.NewStandaloneBatch(true)
	b.SetWithOptions("lock:{j}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:{j}")
	return c.Exec(ctx, *b, true)
}

func maybeAtomic(ctx context.Context, c *glide.Client, token string, atomic bool) ([]any, error) {
	b := pipeline.NewStandaloneBatch(atomic)
	b.SetWithOptions("lock:{j}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:{j}")
	return c.Exec(ctx, *b, true)
}
