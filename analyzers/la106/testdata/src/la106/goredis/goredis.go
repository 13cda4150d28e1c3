package goredis

import (
	"context"
	"fmt"
	"time"

	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

func acquire(ctx context.Context, rdb *redis.Client, old *redis8.Client, job, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:a", token, 0)                           // want `^SET NX without EX/PX/EXAT/PXAT: a client that crashes leaves a lock that never expires; use SET key token NX PX ttl$`
	rdb.SetArgs(ctx, "lock:b", token, redis.SetArgs{Mode: "NX"}) // want `SET NX without EX/PX/EXAT/PXAT`
	rdb.Do(ctx, "SETNX", "lock:c", token)                        // want `SETNX cannot set a TTL`
	old.SetNX(ctx, "lock:d", token, 0)                           // want `SetNX\(\.\.\., 0\) \(sent as SETNX\) cannot set a TTL`
	rdb.Do(ctx, "set", "lock:e", token, "nx")                    // want `SET NX without EX/PX/EXAT/PXAT`

	// Negatives.
	rdb.SetNX(ctx, "lock:ok", token, 30*time.Second)
	rdb.SetNX(ctx, "lock:ok", token, ttl)
	old.SetNX(ctx, "lock:ok", token, ttl)
	rdb.SetArgs(ctx, "lock:ok", token, redis.SetArgs{Mode: "NX", TTL: ttl})
	rdb.Do(ctx, "SET", "lock:ok", token, "NX", "PX", 30000)
	rdb.Set(ctx, "cache", token, 0) // not an acquire
}

func thenExpire(ctx context.Context, rdb *redis.Client, job, token string, ttl time.Duration) {
	key := fmt.Sprintf("lock:%s", job)
	if ok, _ := rdb.SetNX(ctx, key, token, 0).Result(); ok { // want `SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE of the same key \(line 31\): a crash in between leaves the lock forever; use SET key token NX PX ttl$`
		rdb.Expire(ctx, key, ttl)
	}
	rdb.Do(ctx, "SETNX", "lock:"+job, token) // want `SETNX, then a separate PEXPIRE of the same key \(line 34\)`
	rdb.PExpire(ctx, fmt.Sprintf("lock:%s", job), ttl)

	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:tx", token, 0) // want `SET NX without EX/PX/EXAT/PXAT, then EXPIRE of the same key in the same MULTI \(line 38\): the EXPIRE runs even if the acquire fails`
		p.Expire(ctx, "lock:tx", ttl)
		return nil
	})
}

func differentKey(ctx context.Context, rdb *redis.Client, a, b, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:"+a, token, 0) // want `SET NX without EX/PX/EXAT/PXAT: a client`
	rdb.Expire(ctx, "lock:"+b, ttl)     // another key: not the separate-EXPIRE form
	rdb.SetNX(ctx, "lock:x", token, ttl)
	rdb.Expire(ctx, "lock:x", ttl) // the acquire already had a TTL
}
