// Package valkeygo: LA101 fixes on valkey-go. The script lives in its own
// file, whose import goes with it.
package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

func release(ctx context.Context, c valkey.Client, key, token string) (int64, error) {
	return releaseScript.Exec(ctx, c, []string{key}, []string{token}).AsInt64()
}

func inline(ctx context.Context, c valkey.Client, key, token string) error {
	return c.Do(ctx, c.B().Eval().Script(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`).Numkeys(1).Key(key).Arg(token).Build()).Error() // want `Lua lock script \(release\)`
}
