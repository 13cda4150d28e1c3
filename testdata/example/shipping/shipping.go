// Package shipping locks shipments with go-redis v9 and writes them to SQL.
package shipping

import (
	"context"
	"database/sql"
	"errors"

	"github.com/redis/go-redis/v9"

	"example.com/orders/lock"
)

// Dispatch hands a shipment to a carrier under the shipment's lock.
func Dispatch(ctx context.Context, rdb *redis.Client, db *sql.DB, shipmentID, carrier string) error {
	lockKey, fenceKey := lock.Keys("shipment", shipmentID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	ok, err := rdb.SetNX(ctx, lockKey, token, lock.TTL).Result()
	if err != nil {
		return err
	}
	if !ok {
		return lock.ErrBusy
	}
	fence, err := rdb.Incr(ctx, fenceKey).Result() // LA109: a pause between SET NX and INCR can draw a higher fence than the next holder's
	if err != nil {
		return err
	}

	const dispatch = `UPDATE shipments SET carrier = $1, fence = $2 WHERE id = $3 AND fence <= $2`
	if _, err := db.ExecContext(ctx, dispatch, carrier, fence, shipmentID); err != nil { // LA111: <= lets a fence issued twice after a failover write twice
		return err
	}

	// Booking the carrier is slow: extend the lease.
	if err := rdb.SetIFEQ(ctx, lockKey, token, token, 0).Err(); err != nil { // LA104: expiration 0 drops the TTL, the lock never expires
		if errors.Is(err, redis.Nil) {
			return lock.ErrLost
		}
		return err
	}

	n, err := rdb.Do(ctx, "DELIFEQ", lockKey, token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return lock.ErrLost
	}
	return nil
}

// Label prints a shipping label under the shipment's lock.
func Label(ctx context.Context, rdb *redis.Client, db *sql.DB, shipmentID string) error {
	lockKey, _ := lock.Keys("shipment", shipmentID)
	token, err := lock.NewToken()
	if err != nil {
		return err
	}
	ok, err := rdb.SetNX(ctx, lockKey, token, lock.TTL).Result()
	if err != nil {
		return err
	}
	if !ok {
		return lock.ErrBusy
	}

	if _, err := db.ExecContext(ctx, `UPDATE shipments SET labelled = true WHERE id = $1`, shipmentID); err != nil { // LA110: no fence: a holder whose lease ran out still writes
		return err
	}

	n, err := rdb.Do(ctx, "DELIFEQ", lockKey, token).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return lock.ErrLost
	}
	return nil
}
