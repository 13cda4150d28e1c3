package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func conflicts(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.Do(ctx, "SET", key, token, "NX", "IFEQ", token, "PX", 30000) // want `^SET with both IFEQ and NX is a syntax error and never runs: use IFEQ alone to extend, NX alone to acquire$`
	rdb.Do(ctx, "set", key, token, "ifeq", token, "xx")              // want `SET with both IFEQ and XX`

	// Negatives: the typed helpers cannot combine them.
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, TTL: time.Second})
	rdb.SetIFEQ(ctx, key, token, token, time.Second)
	rdb.SetNX(ctx, key, token, time.Second)
	rdb.Do(ctx, "SET", key, token, "IFEQ", token, "PX", 30000)
}
