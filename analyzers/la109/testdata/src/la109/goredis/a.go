// Package goredis: LA109 on go-redis v9.
package goredis

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func separate(ctx context.Context, rdb *redis.Client, token string) (int64, error) {
	ok, err := rdb.SetNX(ctx, "lock:{job}", token, ttl).Result()
	if err != nil || !ok {
		return 0, err
	}
	return rdb.Incr(ctx, "fence:{job}").Result() // want `^fencing INCR "fence:\{job\}" and the SET NX at a\.go:15 are separate round trips: send both in one MULTI/EXEC$`
}

func before(ctx context.Context, rdb *redis.Client, id, token string) {
	rdb.IncrBy(ctx, "job:"+id+":fencing_token", 1) // want `^fencing INCRBY "job:" \+ id \+ ":fencing_token" and the SET NX at a\.go:24 are separate round trips: send both in one MULTI/EXEC$`
	rdb.SetNX(ctx, "lock:"+id, token, ttl)
}

func pipelined(ctx context.Context, rdb *redis.Client, token string) {
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{job}", token, ttl)
		p.Incr(ctx, "fence:{job}") // want `^fencing INCR "fence:\{job\}" and the SET NX at a\.go:29 are pipelined, not in one MULTI: send both in one MULTI/EXEC$`
		return nil
	})
}

// A counter whose value is written with the protected data is a fence,
// whatever its name.
func counter(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:inv", token, ttl).Result(); !ok {
		return nil
	}
	n, err := rdb.Incr(ctx, "inv:seq").Result() // want `^fencing INCR "inv:seq" and the SET NX at a\.go:38 are separate round trips: send both in one MULTI/EXEC$`
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE inv SET seq = $1 WHERE seq < $1", n)
	return err
}

// Negatives.

func together(ctx context.Context, rdb *redis.Client, token string) ([]redis.Cmder, error) {
	return rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{job}", token, ttl)
		p.Incr(ctx, "fence:{job}")
		return nil
	})
}

func togetherExec(ctx context.Context, rdb *redis.Client, token string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, "lock:{a}", token, ttl)
	pipe.Incr(ctx, "fence:{a}")
	pipe.Exec(ctx)
}

// A counter next to an acquire whose value goes nowhere is not a fence.
func attempts(ctx context.Context, rdb *redis.Client, token string) {
	rdb.Incr(ctx, "attempts:job")
	rdb.SetNX(ctx, "lock:job", token, ttl)
}

// A fence with no acquire in the same function: nothing to compare.
func fenceOnly(ctx context.Context, rdb *redis.Client) int64 {
	return rdb.Incr(ctx, "fence:job").Val()
}
