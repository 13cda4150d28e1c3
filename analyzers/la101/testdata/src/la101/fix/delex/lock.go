package delex

import "github.com/gomodule/redigo/redis"

// The package takes locks, so its compare-and-delete scripts are lock
// releases whatever their names (lock evidence).
func acquire(conn redis.Conn, key, token string) (any, error) {
	return conn.Do("SET", "lock:"+key, token, "NX", "PX", 30000)
}
