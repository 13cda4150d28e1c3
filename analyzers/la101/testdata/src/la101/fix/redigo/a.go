// Package redigo: LA101 fixes on redigo: script.Do(conn, key, token) and an
// inline EVAL become conn.Do("DELIFEQ", key, token); both reply 1 or 0.
package redigo

import "github.com/gomodule/redigo/redis"

const src = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var (
	// unlockScript deletes the key if it still holds the token.
	unlockScript = redis.NewScript(1, src) // want `Lua lock script \(release\)`
	other        = 1
)

func release(pool *redis.Pool, key, token string) (bool, error) {
	conn := pool.Get()
	defer conn.Close()
	return redis.Bool(unlockScript.Do(conn, key, token))
}

func inline(conn redis.Conn, key, token string) (int, error) {
	return redis.Int(conn.Do("EVAL", src, 1, key, token)) // want `Lua lock script \(release\)`
}
