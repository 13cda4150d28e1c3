package goredis

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Positives: lock steps in Lua, reported where the text is.

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `^Lua lock script \(release\): use DELIFEQ key token instead$`

const refreshSrc = `
	local v = redis.call("GET", KEYS[1])
	if v ~= ARGV[1] then return 0 end
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])`

var refresh = redis.NewScriptServerSHA(refreshSrc) // want `^Lua lock script \(extend\): use SET key token IFEQ token PX ttl instead$`

var obtain = redis.NewScript(`return redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`) // want `^Lua lock script \(acquire\): use SET key token NX PX ttl instead$`

func run(ctx context.Context, rdb *redis.Client, token string) {
	unlock.Run(ctx, rdb, []string{"lock:a"}, token)  // the run is not reported again
	refresh.Run(ctx, rdb, []string{"lock:a"}, token) // nor this one
	obtain.Run(ctx, rdb, []string{"lock:a"}, token)
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`, []string{"lock:a"}, token, 30000) // want `Lua lock script \(extend\)`
	rdb.Do(ctx, "eval", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("unlink", KEYS[1]) end return 0`, 1, "lock:a", token)                   // want `Lua lock script \(release\)`
}

// Negatives: scripts that are not lock steps, and texts we cannot see.

var limiter = redis.NewScript(`
	local n = redis.call("INCR", KEYS[1])
	if n == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
	return n`)

var pop = redis.NewScript(`return redis.call("RPOPLPUSH", KEYS[1], KEYS[2])`)

var cas = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("SET", KEYS[1], ARGV[2]) return 1 end return 0`)

func negatives(ctx context.Context, rdb *redis.Client, src string) {
	limiter.Run(ctx, rdb, []string{"hits"}, 1000)
	pop.Run(ctx, rdb, []string{"q", "q:work"})
	cas.Run(ctx, rdb, []string{"cfg"}, "v1", "v2")
	rdb.Eval(ctx, src, []string{"lock:a"}, "t")
	redis.NewScript(src).Run(ctx, rdb, []string{"lock:a"}, "t")
	rdb.EvalSha(ctx, "e950836ed1e694540c503ef9972b8de518044d3b", []string{"lock:a"}, "t")
}
