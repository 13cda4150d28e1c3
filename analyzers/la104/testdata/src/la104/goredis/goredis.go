package goredis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func extend(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration, args redis.SetArgs) {
	rdb.SetIFEQ(ctx, key, token, token, 0)                                                      // want `^SET IFEQ without EX/PX/EXAT/PXAT drops the TTL, so the lock becomes permanent: give the extend its lease, SET key token IFEQ token PX ttl$`
	rdb.SetIFEQ(ctx, key, token, token, redis.KeepTTL)                                          // want `SET IFEQ with KEEPTTL keeps the old deadline, so the extend does nothing`
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token})                // want `SET IFEQ without EX/PX/EXAT/PXAT`
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "ifeq", MatchValue: token, KeepTTL: true}) // want `SET IFEQ with KEEPTTL`
	rdb.Do(ctx, "SET", key, token, "IFEQ", token)                                               // want `SET IFEQ without EX/PX/EXAT/PXAT`

	// Negatives: the extend carries the lease, or we cannot see all options.
	rdb.SetIFEQ(ctx, key, token, token, 30*time.Second)
	rdb.SetIFEQ(ctx, key, token, token, ttl)
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, TTL: ttl})
	rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "IFEQ", MatchValue: token, ExpireAt: time.Now().Add(ttl)})
	rdb.SetArgs(ctx, key, token, args)
	rdb.Do(ctx, "SET", key, token, "IFEQ", token, "PX", 30000)
	rdb.Set(ctx, key, token, 0)              // not an extend
	rdb.SetIFNE(ctx, key, token, "other", 0) // not an extend
	rdb.Do(ctx, append([]interface{}{"SET", key, token, "IFEQ", token}, ttlArgs()...)...)
}

func ttlArgs() []interface{} { return []interface{}{"PX", 30000} }
