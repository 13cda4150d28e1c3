// Package old: a target without DELIFEQ or DELEX (one node still on
// Valkey 8.1): the advice is a Lua compare-and-delete, and there is no fix.
package old

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func releaseLock(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.SetNX(ctx, key, token, time.Minute)
	rdb.Del(ctx, key) // nofix: valkey-8.1 has neither DELIFEQ nor DELEX // want "^plain DEL of lock key `key` deletes whoever holds it: use a Lua compare-and-delete and check the reply$"
}
