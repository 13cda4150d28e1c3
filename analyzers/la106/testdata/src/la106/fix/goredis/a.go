// Package goredis: LA106 fixes on go-redis (v9 and v8): SetNX(ctx, k, v, 0)
// followed by Expire(ctx, k, d) becomes SetNX(ctx, k, v, d), and the
// EXPIRE goes.
package goredis

import (
	"context"
	"errors"
	"fmt"
	"time"

	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

func acquire(ctx context.Context, rdb *redis.Client, id, token string, ttl time.Duration) error {
	key := "lock:job:" + id
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // want `SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE`
	if err != nil {
		return fmt.Errorf("acquire %s: %w", key, err)
	}
	if !ok {
		return errBusy
	}
	rdb.Expire(ctx, key, ttl) // the lease, late
	return nil
}

func pexpire(ctx context.Context, rdb *redis.Client, token string) error {
	if err := rdb.SetArgs(ctx, "lock:args", token, redis.SetArgs{Mode: "NX"}).Err(); err != nil { // want `SET NX without EX/PX/EXAT/PXAT, then a separate PEXPIRE`
		return err
	}
	if err := rdb.PExpire(ctx, "lock:args", 30*time.Second).Err(); err != nil {
		return err
	}
	return nil
}

func legacy(ctx context.Context, old *redis8.Client, token string, ttl time.Duration) bool {
	ok := old.SetNX(ctx, "lock:v8", token, 0).Val() // want `SetNX\(\.\.\., 0\) \(sent as SETNX\), then a separate EXPIRE`
	old.Expire(ctx, "lock:v8", ttl)
	return ok
}

// Negatives: the finding stands, no fix.

func expireRead(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) bool {
	rdb.SetNX(ctx, "lock:read", token, 0) // nofix: the EXPIRE's reply is read // want `then a separate EXPIRE`
	return rdb.Expire(ctx, "lock:read", ttl).Val()
}

func outerErr(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) error {
	err := rdb.SetNX(ctx, "lock:err", token, 0).Err() // nofix: the EXPIRE sets err, read later // want `then a separate EXPIRE`
	err = rdb.Expire(ctx, "lock:err", ttl).Err()
	return err
}

func declaredAfter(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:after", token, 0) // nofix: ttl is declared after the acquire // want `then a separate EXPIRE`
	ttl := 5 * time.Second
	rdb.Expire(ctx, "lock:after", ttl)
}

func between(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:between", token, 0) // nofix: a command between the two // want `then a separate EXPIRE`
	rdb.Get(ctx, "lock:between")
	rdb.Expire(ctx, "lock:between", ttl)
}

func nested(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	if rdb.SetNX(ctx, "lock:nested", token, 0).Val() { // nofix: the EXPIRE is in another block // want `then a separate EXPIRE`
		rdb.Expire(ctx, "lock:nested", ttl)
	}
}

func otherClient(ctx context.Context, rdb, other *redis.Client, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:other", token, 0) // nofix: the EXPIRE goes to another client // want `then a separate EXPIRE`
	other.Expire(ctx, "lock:other", ttl)
}

func conditional(ctx context.Context, rdb *redis.Client, token string, ttl time.Duration) {
	rdb.SetNX(ctx, "lock:nx", token, 0) // nofix: ExpireNX is not the plain EXPIRE // want `SET NX without EX/PX/EXAT/PXAT`
	rdb.ExpireNX(ctx, "lock:nx", ttl)
}

func seconds(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:secs", token, 0) // nofix: 30 counts seconds, SetNX takes a time.Duration // want `then a separate EXPIRE`
	rdb.Do(ctx, "EXPIRE", "lock:secs", 30)
}
