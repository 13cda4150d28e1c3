// Package glide: LA113 on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

func untagged(ctx context.Context, c *glide.ClusterClient, token string) ([]any, error) {
	b := pipeline.NewClusterBatch(true)
	b.SetWithOptions("lock:job", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:job") // want `^lock key "lock:job" and fence key "fence:job" in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\.g\. lock:\{job\} and fence:\{job\}$`
	return c.Exec(ctx, *b, true)
}

func tagged(ctx context.Context, c *glide.ClusterClient, token string) ([]any, error) {
	b := pipeline.NewClusterBatch(true)
	b.SetWithOptions("lock:{job}", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:{job}")
	return c.Exec(ctx, *b, true)
}

func notAtomic(ctx context.Context, c *glide.ClusterClient, token string) ([]any, error) {
	b := pipeline.NewClusterBatch(false)
	b.SetWithOptions("lock:job", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	b.Incr("fence:job")
	return c.Exec(ctx, *b, false)
}
