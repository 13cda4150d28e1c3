// Package goredis: LA113 on go-redis v9.
package goredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var acquireFence = redis.NewScript(`if redis.call("set", KEYS[1], ARGV[1], "nx", "px", ARGV[2]) then return redis.call("incr", KEYS[2]) end return nil`)

func untagged(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:"+id, token, ttl)
		p.Incr(ctx, "fence:"+id) // want "^lock key `\"lock:\" \\+ id` and fence key `\"fence:\" \\+ id` in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\\.g\\. lock:\\{job\\} and fence:\\{job\\}$"
		return nil
	})
}

func differentTags(ctx context.Context, rdb *redis.Client, token string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, "lock:{orders}", token, ttl)
	pipe.Incr(ctx, "fence:{invoices}") // want `^lock key "lock:\{orders\}" and fence key "fence:\{invoices\}" in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\.g\. lock:\{job\} and fence:\{job\}$`
	pipe.Exec(ctx)
}

// Any INCR queued with the acquire is its fence, whatever its name.
func counter(ctx context.Context, rdb *redis.Client, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{job}", token, ttl)
		p.Incr(ctx, "seq:job") // want `^lock key "lock:\{job\}" and fence key "seq:job" in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\.g\. lock:\{job\} and fence:\{job\}$`
		return nil
	})
}

func script(ctx context.Context, rdb *redis.Client, id, token string) {
	acquireFence.Run(ctx, rdb, []string{"lock:" + id, "fence:" + id}, token, 30000) // want "^lock key `\"lock:\" \\+ id` and fence key `\"fence:\" \\+ id` in one script fail with CROSSSLOT in a cluster: give both one hash tag, e\\.g\\. lock:\\{job\\} and fence:\\{job\\}$"
}

// Negatives.

func tagged(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{"+id+"}", token, ttl)
		p.Incr(ctx, fmt.Sprintf("fence:{%s}", id))
		return nil
	})
	acquireFence.Run(ctx, rdb, []string{"lock:{" + id + "}", "fence:{" + id + "}"}, token, 30000)
}

func helpers(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, lockKey(id), token, ttl)
		p.Incr(ctx, fenceKey(id))
		return nil
	})
}

func lockKey(id string) string  { return "lock:{" + id + "}" }
func fenceKey(id string) string { return "fence:{" + id + "}" }

// Keys passed in: their text cannot be seen.
func params(ctx context.Context, rdb *redis.Client, lock, fence, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, lock, token, ttl)
		p.Incr(ctx, fence)
		return nil
	})
}

// Tags filled by different expressions may be equal at run time.
func maybe(ctx context.Context, rdb *redis.Client, a, b, token string) {
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{"+a+"}", token, ttl)
		p.Incr(ctx, "fence:{"+b+"}")
		return nil
	})
}

// A plain pipeline is split by slot in cluster mode.
func pipeline(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:"+id, token, ttl)
		p.Incr(ctx, "fence:"+id)
		return nil
	})
}
