// Package redigo: LA109 on redigo.
package redigo

import "github.com/gomodule/redigo/redis"

func separate(c redis.Conn, token string) (int64, error) {
	if _, err := c.Do("SET", "lock:{a}", token, "NX", "PX", 30000); err != nil {
		return 0, err
	}
	return redis.Int64(c.Do("INCR", "fence:{a}")) // want `^fencing INCR "fence:\{a\}" is sent in a separate round trip from the SET NX of "lock:\{a\}"`
}

func together(c redis.Conn, token string) ([]interface{}, error) {
	c.Send("MULTI")
	c.Send("SET", "lock:{a}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{a}")
	return redis.Values(c.Do("EXEC"))
}
