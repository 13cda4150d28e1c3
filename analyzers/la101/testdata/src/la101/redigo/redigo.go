package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

var release = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `Lua lock script \(release\)`

var acquireFenced = redis.NewScript(2, // want `^Lua lock script \(acquire\): use SET key token NX PX ttl and INCR in one MULTI instead$`
	`if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return redis.call("incr", KEYS[2]) end return nil`)

var counter = redis.NewScript(1, `return redis.call("INCRBY", KEYS[1], ARGV[1])`)

func run(c redis.Conn, token string) {
	release.Do(c, "lock:a", token)
	acquireFenced.Do(c, "lock:{a}", "fence:{a}", token, 30000)
	counter.Do(c, "hits", 1)
	c.Do("EVAL", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("EXPIRE", KEYS[1], ARGV[2]) end return 0`, 1, "lock:a", token, 30) // want `Lua lock script \(extend\)`
	c.Do("EVAL", `return redis.call("LPOP", KEYS[1])`, 1, "queue")
	c.Do("EVAL", fmt.Sprintf(`return redis.call("%s", KEYS[1])`, "DEL"), 1, "lock:a")
}
