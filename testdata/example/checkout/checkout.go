// Package checkout is the reference lock: the native pattern with no Lua,
// on go-redis v9. lockaudit reports nothing here.
package checkout

import (
	"context"
	"database/sql"
	"errors"
	"log"

	"github.com/redis/go-redis/v9"

	"example.com/orders/lock"
)

// Pay marks an order paid while holding the order's lock.
//
// Acquire and fence in one MULTI (SET NX PX + INCR, keys sharing a hash tag),
// write with the fence and a strict < check, extend with SET IFEQ PX, and
// release with DELIFEQ, checking every reply.
func Pay(ctx context.Context, rdb *redis.Client, db *sql.DB, orderID string) error {
	lockKey, fenceKey := lock.Keys("order", orderID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}

	var acquired *redis.BoolCmd
	var fenceCmd *redis.IntCmd
	if _, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		acquired = pipe.SetNX(ctx, lockKey, token, lock.TTL)
		fenceCmd = pipe.Incr(ctx, fenceKey)
		return nil
	}); err != nil {
		return err
	}
	if !acquired.Val() {
		return lock.ErrBusy
	}
	fence := fenceCmd.Val()

	res, err := db.ExecContext(ctx,
		`UPDATE orders SET status = 'paid', last_fence = $1 WHERE id = $2 AND last_fence < $1`,
		fence, orderID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return lock.ErrStale
	}

	// The receipt takes a while: keep the lease, and stop if it is gone.
	if err := rdb.SetIFEQ(ctx, lockKey, token, token, lock.TTL).Err(); err != nil {
		if errors.Is(err, redis.Nil) {
			return lock.ErrLost
		}
		return err
	}
	if _, err := db.ExecContext(ctx,
		`INSERT INTO receipts (order_id, fence) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM orders WHERE id = $1 AND last_fence > $2)`,
		orderID, fence); err != nil {
		return err
	}

	released, err := rdb.Do(ctx, "DELIFEQ", lockKey, token).Int()
	if err != nil {
		return err
	}
	if released == 0 {
		log.Printf("checkout: lock on order %s expired before release", orderID)
	}
	return nil
}
