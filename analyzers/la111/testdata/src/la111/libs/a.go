// Package libs: LA111 in a function holding a redsync lock, writing through
// an sqlc-style DBTX.
package libs

import (
	"context"
	"database/sql"

	"github.com/go-redsync/redsync/v4"
)

type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

func run(ctx context.Context, m *redsync.Mutex, db DBTX, fence int64) error {
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	_, err := db.ExecContext(ctx, "UPDATE t SET token = $1 WHERE token <= $1", fence) // want `^fence check "token <= \$1" passed to db\.ExecContext is not strict, and a failover can repeat a fence: write "token < \$1"$`
	return err
}
