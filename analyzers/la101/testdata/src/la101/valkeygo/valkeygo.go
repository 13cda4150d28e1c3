package valkeygo

import (
	"context"

	"github.com/valkey-io/valkey-go"
)

// valkeylock's own scripts, as an application might copy them.
var (
	delkey = valkey.NewLuaScriptRetryable(`if redis.call("GET",KEYS[1]) == ARGV[1] then return redis.call("DEL",KEYS[1]) end;return 0`)                                            // want `Lua lock script \(release\)`
	extend = valkey.NewLuaScript(`if redis.call("GET",KEYS[1]) == ARGV[1] then local r = redis.call("PEXPIREAT",KEYS[1],ARGV[2]);redis.call("GET",KEYS[1]);return r end;return 0`) // want `Lua lock script \(extend\)`
	acqat  = valkey.NewLuaScriptNoSha(`local r = redis.call("SET",KEYS[1],ARGV[1],"NX","PXAT",ARGV[2]);redis.call("GET",KEYS[1]);return r`)                                        // want `Lua lock script \(acquire\)`
	fcqat  = valkey.NewLuaScript(`local r = redis.call("SET",KEYS[1],ARGV[1],"PXAT",ARGV[2]);redis.call("GET",KEYS[1]);return r`)
	bucket = valkey.NewLuaScriptReadOnly(`return redis.call("ZCARD", KEYS[1])`)
)

func run(ctx context.Context, c valkey.Client, token string) {
	delkey.Exec(ctx, c, []string{"lock:a"}, []string{token})
	fcqat.Exec(ctx, c, []string{"lock:a"}, []string{token, "1"})
	bucket.Exec(ctx, c, []string{"z"}, nil)
	c.Do(ctx, c.B().Eval().Script(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`).Numkeys(1).Key("lock:a").Arg(token).Build()) // want `Lua lock script \(release\)`
	c.Do(ctx, c.B().Eval().Script(`return redis.call("HINCRBY", KEYS[1], ARGV[1], 1)`).Numkeys(1).Key("h").Arg("f").Build())
	c.Do(ctx, c.B().Evalsha().Sha1("abc").Numkeys(1).Key("lock:a").Arg(token).Build())
}
