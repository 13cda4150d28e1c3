// Package pgx is a stub of github.com/jackc/pgx/v5 v5.7.5 for analyzer
// tests: the writer methods LA110/LA111 know, with their real signatures.
package pgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

type Conn struct{}

func Connect(ctx context.Context, connString string) (*Conn, error) { return &Conn{}, nil }

func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}

func (c *Conn) Begin(ctx context.Context) (Tx, error) { return nil, nil }

// Tx is a subset of the real interface (same method signatures).
type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	Exec(ctx context.Context, sql string, arguments ...any) (commandTag pgconn.CommandTag, err error)
	Conn() *Conn
}
