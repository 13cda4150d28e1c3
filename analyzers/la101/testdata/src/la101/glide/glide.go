package glide

import (
	"context"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/options"
)

var release = options.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`) // want `Lua lock script \(release\)`

var leaderboard = options.NewScript(`redis.call("ZADD", KEYS[1], ARGV[1], ARGV[2]) return redis.call("ZREVRANK", KEYS[1], ARGV[2])`)

func run(ctx context.Context, c *glide.Client, token string) {
	c.InvokeScriptWithOptions(ctx, *release, options.ScriptOptions{Keys: []string{"lock:a"}, Args: []string{token}})
	c.InvokeScriptWithOptions(ctx, *leaderboard, options.ScriptOptions{Keys: []string{"board"}, Args: []string{"10", "me"}})
	c.CustomCommand(ctx, []string{"EVAL", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`, "1", "lock:a", token, "30000"}) // want `Lua lock script \(extend\)`
}
