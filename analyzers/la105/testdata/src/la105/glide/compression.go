package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

// A lock client configured with client-side compression: glide compresses
// the SET's value and not the IFEQ comparison, so the extend never matches
// the token it stored (glide 2.6 rejects the command).
type locker struct{ c *glide.Client }

func newLocker() (*locker, error) {
	cfg := config.NewClientConfiguration().
		WithAddress(&config.NodeAddress{Host: "127.0.0.1", Port: 6379}).
		WithCompressionConfiguration(config.NewCompressionConfiguration())
	c, err := glide.NewClient(cfg)
	if err != nil {
		return nil, err
	}
	return &locker{c: c}, nil
}

func (l *locker) extend(ctx context.Context, key, token string) {
	l.c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second))) // want `^SET IFEQ on a client configured with compression: the stored token is compressed, the comparison is not; keep compression off for the lock client$`
}

func compressedCluster(ctx context.Context, key, token string) {
	cfg := config.NewClientConfiguration()
	cfg.WithCompressionConfiguration(config.NewCompressionConfiguration().WithBackend(config.LZ4))
	c, _ := glide.NewClient(cfg)
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second))) // want `^SET IFEQ on a client configured with compression`
}

// Negatives: compression switched off, no compression, and a compressing
// client used for data only.
func plain(ctx context.Context, key, token string) {
	off, _ := glide.NewClient(config.NewClientConfiguration().WithCompressionConfiguration(config.NewCompressionConfiguration().WithEnabled(false)))
	off.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second)))
	none, _ := glide.NewClient(config.NewClientConfiguration())
	none.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second)))
	data, _ := glide.NewClient(config.NewClientConfiguration().WithCompressionConfiguration(config.NewCompressionConfiguration()))
	data.SetWithOptions(ctx, "doc:1", "payload", *options.NewSetOptions().SetExpiry(options.NewExpiryIn(time.Hour)))
}
