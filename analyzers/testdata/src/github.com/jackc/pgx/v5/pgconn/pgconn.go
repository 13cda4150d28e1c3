// Package pgconn is a stub of github.com/jackc/pgx/v5/pgconn v5.7.5 for
// analyzer tests.
package pgconn

type CommandTag struct{ s string }

func (ct CommandTag) RowsAffected() int64 { return 0 }
func (ct CommandTag) String() string      { return ct.s }
