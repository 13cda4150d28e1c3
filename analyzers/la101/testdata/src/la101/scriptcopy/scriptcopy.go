// Package scriptcopy: a redsync copy whose scripts are built by its own
// redis package's NewScript and run through its driver interface.
package scriptcopy

import (
	"time"

	"la101/scriptcopy/redis"
)

var deleteScript = redis.NewScript(1, // want `Lua lock script \(release\)`
	`
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	else
		return 0
	end
`)

var touchScript = redis.NewScript(1, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`) // want `Lua lock script \(extend\)`

// A digest-only constructor keeps no text: nothing to classify.
var digested = redis.NewScriptDigest(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)

var counter = redis.NewScript(1, `return redis.call("INCR", KEYS[1])`)

type Mutex struct {
	name   string
	expiry time.Duration
}

func (m *Mutex) acquire(conn redis.Conn, value string) (bool, error) {
	return conn.SetNX(m.name, value, m.expiry)
}

func (m *Mutex) release(conn redis.Conn, value string) (bool, error) {
	status, err := conn.Eval(deleteScript, m.name, value)
	return status != int64(0), err
}

func (m *Mutex) touch(conn redis.Conn, value string, expiry int) (bool, error) {
	status, err := conn.Eval(touchScript, m.name, value, expiry)
	return status != int64(0), err
}

func (m *Mutex) others(conn redis.Conn, value string) {
	conn.Eval(digested, m.name, value)
	conn.Eval(counter, "hits")
}
