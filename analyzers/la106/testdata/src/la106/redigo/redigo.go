package redigo

import "github.com/gomodule/redigo/redis"

func acquireLock(c redis.Conn, key, token string, opts []interface{}) {
	c.Do("SET", key, token, "NX") // want `SET NX without EX/PX/EXAT/PXAT, then a separate EXPIRE of the same key \(line 7\)`
	c.Do("EXPIRE", key, 30)
	c.Do("SETNX", "lock:b", token) // want `SETNX cannot set a TTL`

	c.Do("SET", key, token, "NX", "PX", 30000)
	c.Do("SET", append([]interface{}{key, token, "NX"}, opts...)...)
}
