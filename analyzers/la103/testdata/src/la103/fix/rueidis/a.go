// Package rueidis: the LA103 fix on rueidis, the same builders as
// valkey-go.
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func work(ctx context.Context, c rueidis.Client, id, token string) error {
	key := "lock:" + id
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(30*time.Second).Build()).Error(); err != nil {
		return err
	}
	return c.Do(ctx, c.B().Del().Key(key).Build()).Error() // want "plain DEL of lock key `key`"
}
