// Package renew: the EXPIRE that completes a TTL-less SETNX is LA106's;
// every other EXPIRE of the lock key is an extend without an owner check.
package renew

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var errLost = errors.New("lock lost")

// Acquired with SET NX and no TTL, completed by an EXPIRE, then renewed
// with EXPIRE in a loop.
func work(ctx context.Context, rdb *redis.Client, job, token string) {
	key := "lock:" + job
	if !rdb.SetNX(ctx, key, token, 0).Val() {
		return
	}
	rdb.Expire(ctx, key, ttl) // completes the acquire: LA106's
	for i := 0; i < 10; i++ {
		rdb.Expire(ctx, key, ttl) // want "^EXPIRE of lock key `key` extends whoever holds it now: use SET key token IFEQ token PX ttl and stop when it fails$"
	}
}

// Renewed in a goroutine: no EXPIRE completes the acquire (LA106 reports
// a lock without a TTL), and the renew is an extend.
func background(ctx context.Context, rdb *redis.Client, job, token string) {
	key := "lock:" + job
	rdb.SetNX(ctx, key, token, 0)
	go func() {
		for {
			rdb.PExpire(ctx, key, ttl) // want "^PEXPIRE of lock key `key` extends whoever holds it now"
			time.Sleep(ttl / 3)
		}
	}()
}

// A retry loop that holds both the acquire and its EXPIRE: the completion.
func retry(ctx context.Context, rdb *redis.Client, job, token string) {
	key := "lock:" + job
	for {
		if rdb.SetNX(ctx, key, token, 0).Val() {
			rdb.Expire(ctx, key, ttl)
			return
		}
		time.Sleep(time.Second)
	}
}

// The owner checked with a GET, then the expire in a second round trip: the
// lock can change hands between them.
func extend(ctx context.Context, rdb *redis.Client, job, token string) error {
	key := "lock:" + job
	if rdb.Get(ctx, key).Val() != token {
		return errLost
	}
	return rdb.PExpire(ctx, key, ttl).Err() // want "^PEXPIRE of lock key `key` races the GET check at line 59: the lock can change hands in between; use SET key token IFEQ token PX ttl$"
}
