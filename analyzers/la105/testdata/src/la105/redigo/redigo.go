package redigo

import "github.com/gomodule/redigo/redis"

func conflicts(c redis.Conn, key, token string, rest []interface{}) {
	c.Do("SET", key, token, "NX", "IFEQ", token, "PX", 30000)                       // want `SET with both IFEQ and NX`
	c.Do("SET", key, token, "IFEQ", token, "NX")                                    // want `SET with both IFEQ and NX`
	c.Do("SET", append([]interface{}{key, token, "IFEQ", token, "XX"}, rest...)...) // want `SET with both IFEQ and XX`

	c.Do("SET", key, token, "NX", "PX", 30000)
	c.Do("SET", key, token, "IFEQ", token, "PX", 30000)
}
