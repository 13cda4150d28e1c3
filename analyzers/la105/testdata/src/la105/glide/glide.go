package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

func conflicts(ctx context.Context, c *glide.Client, key, token string) {
	c.CustomCommand(ctx, []string{"SET", key, token, "XX", "IFEQ", token}) // want `SET with both IFEQ and XX`

	// glide's condition setters override each other: only IFEQ is sent.
	c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(time.Second)))
}
