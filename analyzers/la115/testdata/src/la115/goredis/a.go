// Package goredis: LA115 on go-redis v9.
package goredis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func positives(ctx context.Context, rdb *redis.Client) error {
	rdb.Wait(ctx, 1, 100*time.Millisecond)                      // want `^reply of WAIT is discarded: read the count and treat fewer acknowledgements than required as not acquired$`
	_ = rdb.WaitAOF(ctx, 1, 1, time.Second)                     // want `^reply of WAITAOF is discarded: read the count and treat fewer acknowledgements than required as not acquired$`
	defer rdb.Wait(ctx, 1, time.Second)                         // want `^reply of WAIT is discarded`
	rdb.Do(ctx, "WAIT", 1, 100)                                 // want `^reply of WAIT is discarded`
	if err := rdb.Wait(ctx, 1, time.Second).Err(); err != nil { // want `^only the error of WAIT is checked, but a short count is no error: treat fewer acknowledgements than required as not acquired$`
		return err
	}
	_, err := rdb.Wait(ctx, 1, time.Second).Result() // want `^only the error of WAIT is checked`
	return err
}

func negatives(ctx context.Context, rdb *redis.Client) (int64, error) {
	n, err := rdb.Wait(ctx, 1, time.Second).Result()
	if err != nil || n < 1 {
		return 0, errors.New("not replicated")
	}
	if rdb.Wait(ctx, 1, time.Second).Val() < 1 {
		return 0, errors.New("not replicated")
	}
	cmd := rdb.Wait(ctx, 1, time.Second)
	return cmd.Result()
}

// In a pipeline whose results are read, the reply may be read there.
func pipelined(ctx context.Context, rdb *redis.Client) ([]redis.Cmder, error) {
	return rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "k", "v", 0)
		p.Do(ctx, "WAIT", 1, 100)
		return nil
	})
}
