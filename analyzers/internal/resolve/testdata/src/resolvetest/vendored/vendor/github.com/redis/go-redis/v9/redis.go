// Package redis is a minimal vendored copy of the go-redis v9 stub: the
// layer strips the .../vendor/ prefix from package paths.
package redis

import (
	"context"
	"time"
)

type BoolCmd struct{}

type Cmder interface{}

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	_ = c(ctx, nil)
	return &BoolCmd{}
}

type Client struct {
	cmdable
}
