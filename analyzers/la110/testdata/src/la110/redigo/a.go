// Package redigo: LA110 on redigo with pgx.
package redigo

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/jackc/pgx/v5"
)

func unfenced(ctx context.Context, c redis.Conn, db *pgx.Conn, token string) error {
	if _, err := c.Do("SET", "lock:job", token, "NX", "PX", 30000); err != nil {
		return err
	}
	_, err := db.Exec(ctx, "UPDATE jobs SET done = true") // want `^write db\.Exec under the lock of a\.go:12 carries no fence: INCR one in the acquire's MULTI and check it in the write \(WHERE fence < \$f\)$`
	c.Do("DELIFEQ", "lock:job", token)
	return err
}

func fenced(ctx context.Context, c redis.Conn, tx pgx.Tx, token string) error {
	c.Send("MULTI")
	c.Send("SET", "lock:{job}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{job}")
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	fence, _ := redis.Int64(vals[1], nil)
	_, err = tx.Exec(ctx, "UPDATE jobs SET fence = $1 WHERE fence < $1", fence)
	return err
}
