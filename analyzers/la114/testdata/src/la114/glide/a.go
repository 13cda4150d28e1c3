// Package glide: LA114 on valkey-glide Go v2.
package glide

import (
	"context"
	"time"

	glide "github.com/valkey-io/valkey-glide/go/v2"
)

func extend(ctx context.Context, c *glide.Client, id string) error {
	_, err := c.PExpire(ctx, "lock:"+id, 30*time.Second)         // want "^PEXPIRE of lock key `\"lock:\" \\+ id`"
	c.CustomCommand(ctx, []string{"EXPIRE", "lock:" + id, "30"}) // want "^EXPIRE of lock key `\"lock:\" \\+ id`"
	return err
}

func negatives(ctx context.Context, c *glide.Client, id string) {
	c.PExpire(ctx, "session:"+id, time.Hour)
}
