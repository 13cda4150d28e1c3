// Package goredis: LA111 on go-redis v9 with database/sql.
package goredis

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const updateJob = `UPDATE jobs SET fence = $1, state = 'done' WHERE id = $2 AND fence <= $1`

func run(ctx context.Context, rdb *redis.Client, db *sql.DB, id string, token string) error {
	cmds, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, "lock:{"+id+"}", token, 30*time.Second)
		p.Incr(ctx, "fence:{"+id+"}")
		return nil
	})
	if err != nil {
		return err
	}
	fence := cmds[1].(*redis.IntCmd).Val()
	if _, err := db.ExecContext(ctx, updateJob, fence, id); err != nil { // want `^fence check "fence <= \$1" passed to db\.ExecContext is not strict, and a failover can repeat a fence: write "fence < \$1"$`
		return err
	}
	q := "UPDATE audit SET last_fence = ? WHERE ? >= last_fence"
	_, err = db.Exec(q, fence, fence) // want `^fence check "\? >= last_fence" passed to db\.Exec is not strict, and a failover can repeat a fence: write "\? > last_fence"$`
	return err
}

// Negatives (and one Sprintf of constants, which is constant SQL).

func strict(ctx context.Context, rdb *redis.Client, db *sql.DB, id, token, table string) error {
	rdb.SetNX(ctx, "lock:"+id, token, 30*time.Second)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET fence = $1 WHERE id = $2 AND fence < $1", 1, id)
	db.ExecContext(ctx, "UPDATE buckets SET tokens = tokens - 1 WHERE tokens <= 0")
	db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET fence = $1 WHERE fence <= $1", table))  // built at run time: not read
	db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET fence = $1 WHERE fence <= $1", "jobs")) // want `^fence check "fence <= \$1"`
	return err
}

// Not a lock-holding function.
func noLock(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, "UPDATE jobs SET fence = $1 WHERE fence <= $1", 1)
}
