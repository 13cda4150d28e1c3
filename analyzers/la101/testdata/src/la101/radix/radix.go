package radix

import (
	"context"

	"github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

var release3 = radix.NewEvalScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `Lua lock script \(release\)`

var extend4 = radix4.NewEvalScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`) // want `Lua lock script \(extend\)`

var window = radix4.NewEvalScript(`redis.call("ZREMRANGEBYSCORE", KEYS[1], 0, ARGV[1]) return redis.call("ZCARD", KEYS[1])`)

func run(ctx context.Context, c radix.Client, c4 radix4.Client, token string) {
	c.Do(release3.Cmd(nil, "lock:a", token))
	c4.Do(ctx, extend4.Cmd(nil, []string{"lock:a"}, token, "30000"))
	c4.Do(ctx, window.Cmd(nil, []string{"w"}, "100"))
	c.Do(radix.Cmd(nil, "EVAL", `return redis.call("set", KEYS[1], ARGV[1], "NX", "EX", ARGV[2])`, "1", "lock:a", token, "30")) // want `Lua lock script \(acquire\)`
}
