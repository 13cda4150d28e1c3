package wrapuse

// Scripts built and run through another package's wrappers
// (la101/wrapperlib): LA101 where the text is, here; a script the helper
// fixes, at the calls whose key is a lock key.

import (
	"context"

	"github.com/redis/go-redis/v9"

	"la101/wrapperlib"
)

var unlock = wrapperlib.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^Lua lock script \(release\): use DELIFEQ key token instead`

var counter = wrapperlib.NewScript(`return redis.call("incr", KEYS[1])`)

const unlockScript = `local v = redis.call("get",KEYS[1]); if v==false then return -1 end; if v~=ARGV[1] then return -2 else return redis.call("del",KEYS[1]) end`

func use(ctx context.Context, c wrapperlib.Client, rdb *redis.Client, token string) {
	c.EvalInt(ctx, unlockScript, []string{"lock:a"}, token) // want `^Lua lock script \(release\): use DELIFEQ key token instead`
	c.EvalInt(ctx, `return redis.call("incr", KEYS[1])`, []string{"n"})
	c.ScriptRun(ctx, unlock, []string{"lock:a"}, token) // a run: reported at unlock
	c.ScriptRun(ctx, counter, []string{"n"})
	// The helper's script has no lock evidence in wrapperlib (its key is a
	// parameter): it is judged here, by the key each call passes.
	wrapperlib.Release(ctx, rdb, "lock:a", token) // want `^Lua lock script in wrapperlib\.Release \(release\): use DELIFEQ key token instead`
	wrapperlib.Release(ctx, rdb, "cache:a", token)
}
