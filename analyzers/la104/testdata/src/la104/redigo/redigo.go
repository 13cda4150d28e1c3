package redigo

import "github.com/gomodule/redigo/redis"

func extend(c redis.Conn, key, token string, ms int, opts []interface{}) {
	c.Do("SET", key, token, "IFEQ", token)            // want `SET IFEQ without EX/PX/EXAT/PXAT`
	c.Do("SET", key, token, "IFEQ", token, "KEEPTTL") // want `SET IFEQ with KEEPTTL`

	c.Do("SET", key, token, "IFEQ", token, "PX", ms)
	c.Do("SET", key, token, "ifeq", token, "ex", 30)
	c.Do("SET", append([]interface{}{key, token, "IFEQ", token}, opts...)...)
	c.Do("SET", redis.Args{}.Add(key, token, "IFEQ", token).AddFlat(opts)...)
}
