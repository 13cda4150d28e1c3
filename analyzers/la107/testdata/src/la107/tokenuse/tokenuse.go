// Package tokenuse: tokens drawn by another package's helpers
// (la107/tokens), judged by their Source facts.
package tokenuse

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"la107/tokens"
)

func weakHelper(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", tokens.Randn(16), time.Minute) // want `^lock token is not unique per acquisition: it comes from math/rand seeded with time\.Now;`
}

func weakThroughLocal(ctx context.Context, rdb *redis.Client) {
	tok := tokens.Randn(16)
	rdb.SetNX(ctx, "lock:job", tok, time.Minute) // want `it comes from math/rand seeded with time\.Now;`
}

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// randomBase64 is nyaruka/redisx's: characters picked by another
// package's IntN, which draws from a time-seeded generator.
func randomBase64(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[tokens.IntN(64)]
	}
	return string(b)
}

func weakIntN(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", randomBase64(10), time.Minute) // want `it comes from math/rand seeded with time\.Now;`
}

// Negatives: crypto/rand underneath, a helper that is neither, a helper
// that draws nothing.

func strongHelper(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", tokens.New(), time.Minute)
}

func mixedHelper(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", tokens.Mixed(), time.Minute)
}

func label(ctx context.Context, rdb *redis.Client, name string) {
	rdb.SetNX(ctx, "lock:job", tokens.Label(name), time.Minute)
}

// The same picks from math/rand/v2's runtime generator, and from a
// crypto-seeded default a setter may replace.
func strongBase64(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[tokens.StrongIntN(64)]
	}
	return string(b)
}

func replacedBase64(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = b64[tokens.Replaced(64)]
	}
	return string(b)
}

func strongIntN(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:job", strongBase64(10), time.Minute)
	rdb.SetNX(ctx, "lock:job", replacedBase64(10), time.Minute)
}
