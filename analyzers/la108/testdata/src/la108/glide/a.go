// Package glide: LA108 on valkey-glide Go v2.
package glide

import (
	"context"
	"errors"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

func positives(ctx context.Context, c *glide.Client, key, token string) error {
	c.CustomCommand(ctx, []string{"DELIFEQ", key, token})                                                                                         // want `^reply of DELIFEQ key is discarded`
	_, err := c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second))) // want `^only the error of SET key IFEQ is checked, but nil \(lock lost\) is no error`
	if err != nil {
		return err
	}
	_, err = c.CustomCommand(ctx, []string{"DELEX", key, "IFEQ", token}) // want `^only the error of DELEX key IFEQ is checked`
	return err
}

func negatives(ctx context.Context, c *glide.Client, key, token string) error {
	res, err := c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfEquals(token).SetExpiry(options.NewExpiryIn(30 * time.Second)))
	if err != nil {
		return err
	}
	if res.IsNil() {
		return errors.New("lost")
	}
	n, err := c.CustomCommand(ctx, []string{"DELIFEQ", key, token})
	if n == int64(0) {
		return errors.New("lost")
	}
	return err
}
