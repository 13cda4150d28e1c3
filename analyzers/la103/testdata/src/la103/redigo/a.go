// Package redigo: LA103 on redigo.
package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

func lockName(id int) string { return fmt.Sprintf("locks/%d", id) }

func withLock(pool *redis.Pool, id int, token string) error {
	c := pool.Get()
	defer c.Close()
	if _, err := c.Do("SET", fmt.Sprintf("task:%d", id), token, "NX", "PX", 30000); err != nil {
		return err
	}
	defer c.Do("DEL", fmt.Sprintf("task:%d", id)) // want "^plain DEL of lock key `fmt\\.Sprintf\\(\"task:%d\", id\\)` deletes"
	c.Do("UNLINK", lockName(id))                  // want "^plain UNLINK of lock key `lockName\\(id\\)` deletes"
	key := "lock:" + fmt.Sprint(id)
	_, err := c.Do("GETDEL", key) // want "^plain GETDEL of lock key `key`"
	return err
}

func sent(c redis.Conn) {
	c.Send("MULTI")
	c.Send("DEL", "lock:batch") // want `^plain DEL of lock key "lock:batch"`
	c.Do("EXEC")
}

func negatives(c redis.Conn, id int, args redis.Args) {
	c.Do("DEL", fmt.Sprintf("cache:%d", id))
	c.Do("DEL", args...)
	c.Do("WATCH", "lock:x")
	c.Do("GET", "lock:x")
	c.Send("MULTI")
	c.Send("DEL", "lock:x")
	c.Do("EXEC")
}
