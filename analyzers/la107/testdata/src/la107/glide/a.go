// Package glide: LA107 on valkey-glide Go v2.
package glide

import (
	"context"
	"crypto/rand"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

func acquire(ctx context.Context, c *glide.Client) error {
	token := time.Now().Format(time.RFC3339Nano)
	_, err := c.SetWithOptions(ctx, "lock:job", token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))) // want `^lock token is not unique per acquisition: it comes from time\.Now;`
	return err
}

func fine(ctx context.Context, c *glide.Client) error {
	_, err := c.SetWithOptions(ctx, "lock:job", rand.Text(), *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second)))
	return err
}
