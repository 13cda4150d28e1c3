// Package goredis: LA110 on go-redis v9 with database/sql.
package goredis

import (
	"context"
	"database/sql"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// No fence at all.
func post(ctx context.Context, rdb *redis.Client, db *sql.DB, batch, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:invoices", token, ttl).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Do(ctx, "DELIFEQ", "lock:invoices", token)
	_, err = db.ExecContext(ctx, "UPDATE invoices SET posted = true WHERE batch = $1", batch) // want `^write db\.ExecContext under the lock of a\.go:16 carries no fence: INCR one in the acquire's MULTI and check it in the write \(WHERE fence < \$f\)$`
	return err
}

// A fence is drawn but not passed.
func dropped(ctx context.Context, rdb *redis.Client, tx *sql.Tx, batch, token string) error {
	var fence *redis.IntCmd
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{inv}", token, ttl)
		fence = p.Incr(ctx, "fence:{inv}")
		return nil
	})
	if err != nil {
		return err
	}
	_, err = tx.Exec("UPDATE invoices SET posted = true WHERE batch = $1", batch) // want `^write tx\.Exec under the lock of a\.go:29 does not pass the fence of a\.go:30: pass it and check it in the write \(WHERE fence < \$f\)$`
	_ = fence
	return err
}

// Negatives.

func fenced(ctx context.Context, rdb *redis.Client, db *sql.DB, batch, token string) error {
	var fence *redis.IntCmd
	if _, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{inv}", token, ttl)
		fence = p.Incr(ctx, "fence:{inv}")
		return nil
	}); err != nil {
		return err
	}
	f := fence.Val()
	_, err := db.ExecContext(ctx, "UPDATE invoices SET posted = true, fence = $2 WHERE batch = $1 AND fence < $2", batch, f)
	return err
}

func fencedCmds(ctx context.Context, rdb *redis.Client, db *sql.DB, batch, token string) error {
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{inv}", token, ttl)
		p.Incr(ctx, "fence:{inv}")
		return nil
	})
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE t SET fence = $1 WHERE fence < $1", cmds[1].(*redis.IntCmd).Val())
	return err
}

// After the release: not while holding the lock.
func afterRelease(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) {
	rdb.SetNX(ctx, "lock:x", token, ttl)
	rdb.Do(ctx, "DELIFEQ", "lock:x", token)
	db.Exec("INSERT INTO audit VALUES ('released')")
}

// No lock: an idempotency marker is not one.
func marker(ctx context.Context, rdb *redis.Client, db *sql.DB, id string) {
	if ok, _ := rdb.SetNX(ctx, "seen:"+id, 1, time.Hour).Result(); ok {
		db.Exec("INSERT INTO events VALUES ($1)", id)
	}
}

// The early-exit release does not end the region; the write is fenced.
type lease struct{ fence int64 }

func (l *lease) acquire(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:{l}", token, ttl).Result()
	if err != nil || !ok {
		return err
	}
	l.fence, err = rdb.Incr(ctx, "fence:{l}").Result()
	return err
}

func (l *lease) write(ctx context.Context, rdb *redis.Client, db *sql.DB, token string) error {
	if ok, _ := rdb.SetNX(ctx, "lock:{l}", token, ttl).Result(); !ok {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE t SET fence = $1 WHERE fence < $1", l.fence)
	return err
}

// A fence passed in (drawn by the caller) cannot be traced, but its name
// says what it is.
func passedIn(ctx context.Context, rdb *redis.Client, db *sql.DB, token string, fence int64) error {
	if ok, _ := rdb.SetNX(ctx, "lock:p", token, ttl).Result(); !ok {
		return nil
	}
	_, err := db.ExecContext(ctx, "UPDATE t SET fence = $1 WHERE fence < $1", fence)
	return err
}
