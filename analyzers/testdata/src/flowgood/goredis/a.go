// Package goredis is the native lock pattern done right on go-redis v9:
// none of LA103, LA107-LA111, LA113-LA115 may report anything here.
package goredis

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var errNotAcquired = errors.New("lock not acquired")

func lockKey(job string) string  { return fmt.Sprintf("lock:{%s}", job) }
func fenceKey(job string) string { return fmt.Sprintf("fence:{%s}", job) }

func newToken() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Lease is a held lock.
type Lease struct {
	rdb   *redis.Client
	job   string
	token string
	Fence int64
}

// Acquire takes the lock and draws the fence in one MULTI.
func Acquire(ctx context.Context, rdb *redis.Client, job string) (*Lease, error) {
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	var set *redis.BoolCmd
	var fence *redis.IntCmd
	if _, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		set = p.SetNX(ctx, lockKey(job), token, ttl)
		fence = p.Incr(ctx, fenceKey(job))
		return nil
	}); err != nil {
		return nil, err
	}
	if !set.Val() {
		return nil, errNotAcquired
	}
	if n, err := rdb.Wait(ctx, 1, 100*time.Millisecond).Result(); err != nil || n < 1 {
		log.Printf("lock %s is only on the primary", job)
	}
	return &Lease{rdb: rdb, job: job, token: token, Fence: fence.Val()}, nil
}

// Extend renews the lease; redis.Nil means it was lost.
func (l *Lease) Extend(ctx context.Context) error {
	return l.rdb.SetIFEQ(ctx, lockKey(l.job), l.token, l.token, ttl).Err()
}

// Release gives the lock back and notices when it was already lost.
func (l *Lease) Release(ctx context.Context) error {
	n, err := l.rdb.Do(ctx, "DELIFEQ", lockKey(l.job), l.token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		log.Printf("lock %s was lost before release", l.job)
	}
	return nil
}

// Post writes under the lock with the fence, checked strictly.
func Post(ctx context.Context, rdb *redis.Client, db *sql.DB, batch string) error {
	token, err := newToken()
	if err != nil {
		return err
	}
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{"+batch+"}", token, ttl)
		p.Incr(ctx, "fence:{"+batch+"}")
		return nil
	})
	if err != nil {
		return err
	}
	if !cmds[0].(*redis.BoolCmd).Val() {
		return errNotAcquired
	}
	fence := cmds[1].(*redis.IntCmd).Val()
	defer func() {
		if n, err := rdb.Do(ctx, "DELIFEQ", "lock:{"+batch+"}", token).Int(); err != nil || n == 0 {
			log.Printf("release of %s: n=%d err=%v", batch, n, err)
		}
	}()
	_, err = db.ExecContext(ctx, `UPDATE invoices SET posted = true, last_fence = $2
		WHERE batch = $1 AND last_fence < $2`, batch, fence)
	return err
}

// Cache work that is not lock code at all.
func Invalidate(ctx context.Context, rdb *redis.Client, user string) error {
	rdb.Expire(ctx, "session:"+user, time.Hour)
	return rdb.Del(ctx, "user:"+user, "profile:"+user).Err()
}

// A rate limiter: an INCR that is not a fence.
func Allow(ctx context.Context, rdb *redis.Client, user string) bool {
	n, err := rdb.Incr(ctx, "rate:"+user).Result()
	return err == nil && n <= 100
}

// An idempotency marker is not a lock.
func Once(ctx context.Context, rdb *redis.Client, db *sql.DB, msg string) error {
	ok, err := rdb.SetNX(ctx, "seen:"+msg, 1, 24*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO events (id) VALUES ($1)", msg)
	return err
}
