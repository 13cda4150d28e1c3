// Package glide: LA103 on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

func withLock(ctx context.Context, c *glide.Client, key, token string) error {
	if _, err := c.SetWithOptions(ctx, key, token, *options.NewSetOptions().SetOnlyIfDoesNotExist().SetExpiry(options.NewExpiryIn(30 * time.Second))); err != nil {
		return err
	}
	defer c.Del(ctx, []string{key})                         // want "^plain DEL of lock key `key` deletes"
	c.CustomCommand(ctx, []string{"UNLINK", "lock:report"}) // want `^plain UNLINK of lock key "lock:report"`
	_, err := c.GetDel(ctx, "locks/report")                 // want `^plain GETDEL of lock key "locks/report"`
	return err
}

func negatives(ctx context.Context, c *glide.Client, id, token string) {
	c.Del(ctx, []string{"session:" + id})
	c.CustomCommand(ctx, []string{"DELIFEQ", "lock:" + id, token})
}
