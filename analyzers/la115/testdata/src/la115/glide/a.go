// Package glide: LA115 on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
)

func positives(ctx context.Context, c *glide.Client) error {
	c.Wait(ctx, 1, time.Second)                                // want `^reply of WAIT is discarded`
	c.CustomCommand(ctx, []string{"WAITAOF", "1", "1", "100"}) // want `^reply of WAITAOF is discarded`
	_, err := c.Wait(ctx, 1, time.Second)                      // want `^only the error of WAIT is checked`
	return err
}

func negatives(ctx context.Context, c *glide.Client) bool {
	n, err := c.Wait(ctx, 1, time.Second)
	return err == nil && n >= 1
}
