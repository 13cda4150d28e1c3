// Package redigo: LA103 fixes on redigo: DEL key -> DELIFEQ key token; both
// reply with an integer, so the reply check stays.
package redigo

import (
	"context"
	"os"

	"github.com/gomodule/redigo/redis"
)

func release(ctx context.Context, pool *redis.Pool, id string) error {
	conn := pool.Get()
	defer conn.Close()
	key := "lock:inv:" + id
	host, _ := os.Hostname()
	if _, err := redis.String(conn.Do("SET", key, host, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := conn.Do("DEL", key) // want "plain DEL of lock key `key`"
	if err != nil {
		return err
	}
	n, err := redis.Int(conn.Do("unlink", key)) // want "plain UNLINK of lock key `key`"
	if err != nil || n == 0 {
		return err
	}
	_, err = redis.DoContext(conn, ctx, "DEL", key) // want "plain DEL of lock key `key`"
	conn.Do("DEL", key, "other")                    // nofix: two keys // want `plain DEL`
	return err
}
