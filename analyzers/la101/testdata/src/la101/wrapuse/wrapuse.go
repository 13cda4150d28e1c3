package wrapuse

// Scripts built and run through another package's wrappers
// (la101/wrapperlib): LA101 where the text is, here.

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la101/wrapperlib"
)

var unlock = wrapperlib.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^Lua lock script \(compare-and-delete\)`

var counter = wrapperlib.NewScript(`return redis.call("incr", KEYS[1])`)

const unlockScript = `local v = redis.call("get",KEYS[1]); if v==false then return -1 end; if v~=ARGV[1] then return -2 else return redis.call("del",KEYS[1]) end`

func use(ctx context.Context, c wrapperlib.Client, rdb *redis.Client, token string) {
	c.EvalInt(ctx, unlockScript, []string{"lock:a"}, token) // want `^Lua lock script \(compare-and-delete\)`
	c.EvalInt(ctx, `return redis.call("incr", KEYS[1])`, []string{"n"})
	c.ScriptRun(ctx, unlock, []string{"lock:a"}, token) // a run: reported at unlock
	c.ScriptRun(ctx, counter, []string{"n"})
	wrapperlib.Release(ctx, rdb, "lock:a", token) // the helper's script is reported in wrapperlib
}
