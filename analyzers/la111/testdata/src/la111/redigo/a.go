// Package redigo: LA111 on redigo with pgx.
package redigo

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/jackc/pgx/v5"
)

func run(ctx context.Context, c redis.Conn, tx pgx.Tx, token string) error {
	c.Send("MULTI")
	c.Send("SET", "lock:{job}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{job}")
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE jobs SET fencing_token = $1 WHERE "fencing_token" <= $1`, vals[1]) // want `^fence check "fencing_token <= \$1" passed to tx\.Exec is not strict, and a failover can repeat a fence: write "fencing_token < \$1"$`
	return err
}
