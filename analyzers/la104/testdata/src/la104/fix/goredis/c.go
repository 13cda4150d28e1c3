package goredis

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// c.go does not import time: the lease cannot be written here.
func extendNoTime(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetIFEQ(ctx, "lock:inline", token, token, 0) // nofix: time is not imported here // want `SET IFEQ without`
}
