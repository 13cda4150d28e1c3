// Package valkeygo: LA103 fixes on valkey-go: B().Del().Key(k).Build() ->
// B().Delifeq().Key(k).Value(token).Build().
package valkeygo

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

func work(ctx context.Context, c valkey.Client, id, token string) error {
	key := "lock:" + id
	if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Px(30*time.Second).Build()).Error(); err != nil {
		return err
	}
	defer c.Do(ctx, c.B().Unlink().Key(key).Build())            // want "plain UNLINK of lock key `key`"
	n, err := c.Do(ctx, c.B().Del().Key(key).Build()).AsInt64() // want "plain DEL of lock key `key`"
	if err != nil || n == 0 {
		return err
	}
	del := c.B().Del().Key(key).Build()
	c.Do(ctx, del)                                   // nofix: the command is built elsewhere // want `plain DEL`
	c.Do(ctx, c.B().Del().Key(key, "other").Build()) // nofix: two keys // want `plain DEL`
	return nil
}

type Token string

func named(ctx context.Context, c valkey.Client, tok Token) {
	c.Do(ctx, c.B().Arbitrary("SET").Keys("lock:named").Args(string(tok), "NX", "PX", "30000").Build())
	c.Do(ctx, c.B().Del().Key("lock:named").Build()) // want `plain DEL`
}
