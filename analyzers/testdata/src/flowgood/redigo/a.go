// Package redigo is the native lock pattern done right on redigo.
package redigo

import (
	"crypto/rand"
	"errors"

	"github.com/gomodule/redigo/redis"
)

func Run(c redis.Conn, job string) (int64, error) {
	token := rand.Text()
	c.Send("MULTI")
	c.Send("SET", "lock:{"+job+"}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{"+job+"}")
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return 0, err
	}
	if vals[0] == nil {
		return 0, errors.New("not acquired")
	}
	fence, _ := redis.Int64(vals[1], nil)
	if n, err := redis.Int(c.Do("WAIT", 1, 100)); err != nil || n < 1 {
		return 0, errors.New("not replicated")
	}
	if reply, err := c.Do("SET", "lock:{"+job+"}", token, "IFEQ", token, "PX", 30000); err != nil || reply == nil {
		return 0, errors.New("lost")
	}
	n, err := redis.Int(c.Do("DELIFEQ", "lock:{"+job+"}", token))
	if err == nil && n == 0 {
		return 0, errors.New("lost")
	}
	return fence, err
}
