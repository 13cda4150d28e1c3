// Package neg: calls that look like DEL of a lock but are not LA103's.
package neg

import "context"

type cache struct{}

func (cache) Del(ctx context.Context, keys ...string) error { return nil }

func f(ctx context.Context) {
	var c cache
	c.Del(ctx, "lock:job") // not a Valkey client
}
