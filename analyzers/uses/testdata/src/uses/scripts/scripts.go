// Lua: EVAL-family commands, script objects that are run, FCALL and
// SCRIPT LOAD rely on a Lua engine; a script object that is never run here
// does not.
package scripts

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/valkey-io/valkey-go"
)

var unlock = goredis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

var limiter = goredis.NewScript(`local n = redis.call("INCR", KEYS[1]) return n`)

var unused = goredis.NewScript(`return redis.call("GET", KEYS[1])`)

var extend = valkey.NewLuaScript(`if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE",KEYS[1],ARGV[2]) end return 0`)

var rgRelease = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`)

var indirect = goredis.NewScript(`local k = redis.call("HGET", KEYS[1], "f") if redis.call("GET", k) == ARGV[1] then return redis.call("DEL", k) end return 0`)

func run(ctx context.Context, rdb *goredis.Client, c valkey.Client, conn redis.Conn, token, src string) {
	unlock.Run(ctx, rdb, []string{"lock:a"}, token)                                                                                                    // uses: lua "Lua compare-and-delete script (scripts.go:14)"
	limiter.Run(ctx, rdb, []string{"hits"})                                                                                                            // uses: lua "Lua script (scripts.go:16)"
	extend.Exec(ctx, c, []string{"lock:a"}, []string{token, "30000"})                                                                                  // uses: lua "Lua compare-and-extend script (scripts.go:20)"
	indirect.Run(ctx, rdb, []string{"owners"}, token)                                                                                                  // uses: lua "Lua compare-and-delete script (scripts.go:24)"
	rgRelease.Do(conn, "lock:a", token)                                                                                                                // uses: lua "Lua compare-and-delete script (scripts.go:22)"
	rdb.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{"lock:a"}, token)           // uses: lua "Lua compare-and-delete script (inline EVAL)"
	rdb.Eval(ctx, src, []string{"k"})                                                                                                                  // uses: lua "Lua script (EVAL)"
	rdb.EvalSha(ctx, "e950836ed1e694540c503ef9972b8de518044d3b", []string{"lock:a"}, token)                                                            // uses: lua "Lua script (EVALSHA)"
	c.Do(ctx, c.B().Eval().Script(`return redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2])`).Numkeys(1).Key("lock:a").Arg(token, "1").Build()) // uses: lua "Lua acquire script (inline EVAL)"
	conn.Do("FCALL", "release", 1, "lock:a", token)                                                                                                    // uses: lua "Lua function call (FCALL)"
	c.Do(ctx, c.B().ScriptLoad().Script(`return 1`).Build())                                                                                           // uses: lua "SCRIPT LOAD"
	conn.Do("SCRIPT", "LOAD", `return 1`)                                                                                                              // uses: lua "SCRIPT LOAD"
	conn.Do("SCRIPT", "FLUSH")
}
