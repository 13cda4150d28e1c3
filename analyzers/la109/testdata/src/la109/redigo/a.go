// Package redigo: LA109 on redigo.
package redigo

import "github.com/gomodule/redigo/redis"

func separate(c redis.Conn, token string) (int64, error) {
	if _, err := c.Do("SET", "lock:{a}", token, "NX", "PX", 30000); err != nil {
		return 0, err
	}
	return redis.Int64(c.Do("INCR", "fence:{a}")) // want `^fencing INCR "fence:\{a\}" and the SET NX at a\.go:7 are separate round trips: send both in one MULTI/EXEC$`
}

func together(c redis.Conn, token string) ([]interface{}, error) {
	c.Send("MULTI")
	c.Send("SET", "lock:{a}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{a}")
	return redis.Values(c.Do("EXEC"))
}
