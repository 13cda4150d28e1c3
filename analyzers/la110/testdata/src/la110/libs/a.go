// Package libs: LA110 with lock libraries (they draw no fence) and a
// configured writer interface.
package libs

import (
	"context"
	"database/sql"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/redis/go-redis/v9"
)

// DBTX is what sqlc generates: its ExecContext is a writer.
type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

func withRedsync(ctx context.Context, rs *redsync.Redsync, db DBTX) error {
	m := rs.NewMutex("job")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := db.ExecContext(ctx, "UPDATE jobs SET done = true") // want `^write db\.ExecContext under the lock of a\.go:22 carries no fence: INCR one in the acquire's MULTI and check it in the write \(WHERE fence < \$f\)$`
	return err
}

func withRedislock(ctx context.Context, rdb *redis.Client, db *sql.DB) error {
	l, err := redislock.Obtain(ctx, rdb, "job", time.Minute, nil)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET done = true") // want `^write db\.ExecContext under the lock of a\.go:31 carries no fence: INCR one in the acquire's MULTI and check it in the write \(WHERE fence < \$f\)$`
	l.Release(ctx)
	_, err = db.ExecContext(ctx, "INSERT INTO audit VALUES ('done')")
	return err
}
