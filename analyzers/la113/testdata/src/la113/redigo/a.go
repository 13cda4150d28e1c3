// Package redigo: LA113 on redigo.
package redigo

import "github.com/gomodule/redigo/redis"

func untagged(c redis.Conn, token string) ([]interface{}, error) {
	c.Send("MULTI")
	c.Send("SET", "lock:job", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:job") // want `^lock key "lock:job" and fence key "fence:job" in one MULTI fail with CROSSSLOT in a cluster: give both one hash tag, e\.g\. lock:\{job\} and fence:\{job\}$`
	return redis.Values(c.Do("EXEC"))
}

func tagged(c redis.Conn, token string) ([]interface{}, error) {
	c.Send("MULTI")
	c.Send("SET", "lock:{job}", token, "NX", "PX", 30000)
	c.Send("INCR", "fence:{job}")
	return redis.Values(c.Do("EXEC"))
}
